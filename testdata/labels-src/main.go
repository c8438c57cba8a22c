// Writes labels.pprof: a CPU profile whose samples carry pprof labels
// (runtime/pprof.Do), for wprof-tui's tag filter tests:
//
//	GO111MODULE=off go run testdata/labels-src/main.go testdata/labels.pprof
//
// then the expected outputs of tests/test_pprof.py (filters) again with go
// tool pprof -top.  The machine's load decides how many samples land.
package main

import (
	"context"
	"os"
	"runtime/pprof"
	"sync"
	"time"
)

var sink int

func spin(d time.Duration) {
	end := time.Now().Add(d)
	x := 0
	for time.Now().Before(end) {
		for i := 0; i < 1000; i++ {
			x += i * i
		}
	}
	sink += x
}

func work(ctx context.Context, worker, phase string, d time.Duration) {
	pprof.Do(ctx, pprof.Labels("worker", worker, "phase", phase), func(context.Context) {
		spin(d)
	})
}

func main() {
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	var wg sync.WaitGroup
	for _, w := range []struct {
		name string
		d    time.Duration
	}{{"alpha", 600 * time.Millisecond}, {"beta", 300 * time.Millisecond}} {
		wg.Add(1)
		go func(name string, d time.Duration) {
			defer wg.Done()
			work(context.Background(), name, "load", d)
			work(context.Background(), name, "save", d/2)
		}(w.name, w.d)
	}
	spin(200 * time.Millisecond)
	wg.Wait()
	pprof.StopCPUProfile()
	f.Close()
}
