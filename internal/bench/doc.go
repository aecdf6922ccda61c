// Package bench measures the client against the simulator end to end, over real HTTP on
// loopback. It holds benchmarks only (`make bench`); they print numbers and assert none.
package bench
