//go:build !unix

package main

// execHost does nothing where a process cannot be replaced: runHost
// runs skillc-host as a child instead.
func execHost(string, []string) error { return nil }
