// Package spectest checks skillc against the examples of the language
// reference. Its test walks testdata/spec: every *.skill.md there is an
// example (or a minimal wrapping of a fragment) from
// spec/language-reference.md, spec/adopter-playbook.md or the seeds. Each
// file is linted and its diagnostics compared with its "# want:" markers;
// a file with a NN-name.run sidecar is also run, with the mocks, inputs,
// fake binaries and secrets the sidecar names, and its canonical output
// compared with NN-name.out. testdata/spec/README.md describes the
// formats.
//
// The package has no exported API; it exists for its test.
package spectest
