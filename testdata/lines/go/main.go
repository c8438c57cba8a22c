package main

import (
	"os"
	"runtime/pprof"
	"time"
)

func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

//go:noinline
func hash(n int) uint64 {
	var h uint64
	for i := 0; i < n; i++ {
		h += mix(uint64(i))
		if i%7 == 0 {
			h = mix(h)
		}
	}
	return h
}

//go:noinline
func work(d time.Duration) uint64 {
	var sum uint64
	for start := time.Now(); time.Since(start) < d; {
		sum += hash(100000)
	}
	return sum
}

func main() {
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	println(work(3000 * time.Millisecond))
	pprof.StopCPUProfile()
	f.Close()
}
