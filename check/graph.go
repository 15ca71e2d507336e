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

// buildGraph computes the graph over nodes, the targets that own their
// name (targets[name]) in source order. The traversals run on the targets'
// indexes in nodes (edge lists in one array, state in a byte slice, an
// explicit stack instead of recursion, so a long needs: chain costs no
// deep Go stack); only the results are maps.
func buildGraph(f *ast.File, nodes []*ast.Target, targets map[string]*ast.Target) Graph {
	g := Graph{}
	edges := 0
	pos := make([]ast.Pos, len(nodes))
	for i, t := range nodes {
		edges += len(t.Needs)
		pos[i] = t.Pos()
	}
	number := func(t *ast.Target) int32 { return indexOf(nodes, pos, t) }
	// adjacency in one array: the deps of node i are adj[start[i]:start[i+1]]
	adj := make([]int32, 0, edges)
	start := make([]int32, len(nodes)+1)
	withDeps := 0
	for i, t := range nodes {
		from := len(adj)
		for _, n := range t.Needs {
			if d, ok := targets[n.Name]; ok {
				adj = append(adj, number(d))
			} else {
				g.Missing = append(g.Missing, Missing{From: t, Name: n})
			}
		}
		start[i+1] = int32(len(adj))
		if len(adj) > from {
			withDeps++
		}
	}
	depsAll := make([]*ast.Target, len(adj))
	for i, d := range adj {
		depsAll[i] = nodes[d]
	}
	g.Deps = make(map[*ast.Target][]*ast.Target, withDeps)
	for i, t := range nodes {
		if a, b := start[i], start[i+1]; b > a {
			g.Deps[t] = depsAll[a:b:b] // capped: an append by a caller does not write into the next list
		}
	}
	goal := int32(-1)
	if len(f.Defaults) > 0 {
		g.GoalDecl = f.Defaults[0]
		if d := f.Defaults[0]; d.Goal != nil {
			if t, ok := targets[d.Goal.Name]; ok {
				goal, g.Goal = number(t), t
			}
		}
	}
	gr := numGraph{nodes: nodes, adj: adj, start: start, state: make([]uint8, len(nodes)), stack: make([]frame, 0, len(nodes))}
	g.Cycles = gr.cycles()
	if goal < 0 {
		g.Reachable = map[*ast.Target]bool{}
	} else {
		clear(gr.state)
		g.Order = gr.postorder(goal)
		g.Reachable = make(map[*ast.Target]bool, len(g.Order))
		for _, t := range g.Order {
			g.Reachable[t] = true
		}
	}
	return g
}

// indexOf returns the index of t in nodes, pos[i] being the position of
// nodes[i]: a binary search, as the parser lists targets in source order,
// with a linear scan for a tree whose targets are out of order.
func indexOf(nodes []*ast.Target, pos []ast.Pos, t *ast.Target) int32 {
	p := t.Pos()
	lo, hi := 0, len(pos)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pos[m] < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := lo; i < len(pos) && pos[i] == p; i++ {
		if nodes[i] == t {
			return int32(i)
		}
	}
	for i, n := range nodes {
		if n == t {
			return int32(i)
		}
	}
	panic("check: a target of the name map is not among the graph's nodes")
}

// numGraph is the dependency graph over target numbers.
type numGraph struct {
	nodes []*ast.Target
	adj   []int32
	start []int32
	state []uint8 // 0 unvisited, 1 on the DFS stack, 2 done
	stack []frame
}

// frame is a DFS stack entry: a node and the index of its next edge.
type frame struct{ node, next int32 }

// postorder does a post-order DFS from root: the run order, dependencies
// before dependents. Cycle edges are skipped (reported separately).
func (g *numGraph) postorder(root int32) []*ast.Target {
	order := make([]*ast.Target, 0, len(g.nodes))
	g.state[root] = 1
	g.stack = append(g.stack[:0], frame{root, g.start[root]})
	for len(g.stack) > 0 {
		top := &g.stack[len(g.stack)-1]
		if top.next < g.start[top.node+1] {
			d := g.adj[top.next]
			top.next++
			if g.state[d] == 0 {
				g.state[d] = 1
				g.stack = append(g.stack, frame{d, g.start[d]})
			}
			continue
		}
		g.state[top.node] = 2
		order = append(order, g.nodes[top.node])
		g.stack = g.stack[:len(g.stack)-1]
	}
	return order
}

// cycles returns each elementary cycle found by DFS from every target in
// source order, once, in dependency order.
func (g *numGraph) cycles() [][]*ast.Target {
	var cycles [][]*ast.Target
	for root := range g.nodes {
		if g.state[root] != 0 {
			continue
		}
		g.state[root] = 1
		g.stack = append(g.stack[:0], frame{int32(root), g.start[root]})
		for len(g.stack) > 0 {
			top := &g.stack[len(g.stack)-1]
			if top.next == g.start[top.node+1] {
				g.state[top.node] = 2
				g.stack = g.stack[:len(g.stack)-1]
				continue
			}
			d := g.adj[top.next]
			top.next++
			switch g.state[d] {
			case 0:
				g.state[d] = 1
				g.stack = append(g.stack, frame{d, g.start[d]})
			case 1:
				for i := len(g.stack) - 1; i >= 0; i-- {
					if g.stack[i].node == d {
						c := make([]*ast.Target, len(g.stack)-i)
						for j, fr := range g.stack[i:] {
							c[j] = g.nodes[fr.node]
						}
						cycles = append(cycles, c)
						break
					}
				}
			}
		}
	}
	return cycles
}
