// Writes Go's legacy text profiles (WriteTo with debug=1): heap, mutex,
// block, threadcreate and goroutine, into the directory it is given.
// tests/test_legacy.py builds and runs it, then reads what it wrote.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink [][]byte

//go:noinline
func allocate(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 4096))
	}
}

//go:noinline
func contend() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Sleeping with the lock held makes the others wait for it.
			for i := 0; i < 100; i++ {
				mu.Lock()
				total++
				time.Sleep(50 * time.Microsecond)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func main() {
	runtime.MemProfileRate = 4096
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	allocate(2000)
	contend()
	runtime.GC()
	for _, name := range []string{"heap", "mutex", "block", "threadcreate", "goroutine"} {
		f, err := os.Create(os.Args[1] + "/" + name + ".txt")
		if err != nil {
			panic(err)
		}
		pprof.Lookup(name).WriteTo(f, 1)
		f.Close()
	}
}
