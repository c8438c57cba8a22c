package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

//go:noinline
func ackermann(m, n int) int { if m == 0 { return n + 1 } else if n == 0 { return ackermann(m-1, 1) }; return ackermann(m-1, ackermann(m, n-1)) }

//go:noinline
func busy(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i % 7
	}
	return s
}

func main() {
	f, err := os.Create("cpu.pprof")
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	total := 0
	for i := 0; i < 12; i++ {
		total += ackermann(2, 2000+i)
		total += ackermann(3, 8)
	}
	total += busy(100000000)
	pprof.StopCPUProfile()
	f.Close()
	fmt.Println(total)
}
