package check

import "github.com/skillscript/skillc/ast"

// Graph is the target dependency graph.
type Graph struct {
	Goal      *ast.Target // target named by default:, nil when absent or unknown
	GoalDecl  *ast.DefaultDecl
	Deps      map[*ast.Target][]*ast.Target // resolved needs, in source order
	Missing   []Missing                     // needs naming no target
	Cycles    [][]*ast.Target               // each cycle once, in dependency order
	Reachable map[*ast.Target]bool          // reachable from the goal
	Order     []*ast.Target                 // run order: dependencies before dependents
}

// Missing is a needs: entry naming an undeclared target.
type Missing struct {
	From *ast.Target
	Name *ast.Ident
}

// Dependents returns the targets that need t.
func (g *Graph) Dependents(t *ast.Target) []*ast.Target {
	var out []*ast.Target
	for from, deps := range g.Deps {
		for _, d := range deps {
			if d == t {
				out = append(out, from)
			}
		}
	}
	return out
}

func buildGraph(f *ast.File, targets map[string]*ast.Target) Graph {
	g := Graph{Deps: map[*ast.Target][]*ast.Target{}, Reachable: map[*ast.Target]bool{}}
	for _, t := range f.Targets {
		if targets[nameOf(t)] != t {
			continue
		}
		for _, n := range t.Needs {
			if d, ok := targets[n.Name]; ok {
				g.Deps[t] = append(g.Deps[t], d)
			} else {
				g.Missing = append(g.Missing, Missing{From: t, Name: n})
			}
		}
	}
	if len(f.Defaults) > 0 {
		g.GoalDecl = f.Defaults[0]
		if d := f.Defaults[0]; d.Goal != nil {
			g.Goal = targets[d.Goal.Name]
		}
	}
	g.Cycles = findCycles(f, targets, g.Deps)
	if g.Goal != nil {
		g.walk(g.Goal, map[*ast.Target]int{})
	}
	return g
}

func nameOf(t *ast.Target) string {
	if t.Name == nil {
		return ""
	}
	return t.Name.Name
}

// walk does a post-order DFS from t, recording reachability and the run
// order; cycle edges are skipped (they are reported separately).
func (g *Graph) walk(t *ast.Target, state map[*ast.Target]int) {
	if state[t] != 0 {
		return
	}
	state[t] = 1
	g.Reachable[t] = true
	for _, d := range g.Deps[t] {
		if state[d] == 1 {
			continue
		}
		g.walk(d, state)
	}
	state[t] = 2
	g.Order = append(g.Order, t)
}

// findCycles returns each elementary cycle found by DFS, once.
func findCycles(f *ast.File, targets map[string]*ast.Target, deps map[*ast.Target][]*ast.Target) [][]*ast.Target {
	state := map[*ast.Target]int{}
	var stack []*ast.Target
	var cycles [][]*ast.Target
	var visit func(t *ast.Target)
	visit = func(t *ast.Target) {
		state[t] = 1
		stack = append(stack, t)
		for _, d := range deps[t] {
			switch state[d] {
			case 0:
				visit(d)
			case 1:
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i] == d {
						cycles = append(cycles, append([]*ast.Target(nil), stack[i:]...))
						break
					}
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[t] = 2
	}
	for _, t := range f.Targets {
		if targets[nameOf(t)] == t && state[t] == 0 {
			visit(t)
		}
	}
	return cycles
}
