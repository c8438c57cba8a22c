package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
)

var keep [][]byte
var sink []byte

//go:noinline
func allocBig(n int) {
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 64<<10))
	}
}

//go:noinline
func allocSmallGarbage(n int) int {
	t := 0
	for i := 0; i < n; i++ {
		sink = make([]byte, 512)
		t += len(sink)
	}
	return t
}

func fetch(base, path, out string) {
	resp, err := http.Get(base + path)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	f, err := os.Create(out)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	io.Copy(f, resp.Body)
}

func main() {
	runtime.MemProfileRate = 4096
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(ln, nil)
	allocBig(40)
	fmt.Println(allocSmallGarbage(20000))
	runtime.GC()
	base := "http://" + ln.Addr().String()
	fetch(base, "/debug/pprof/heap?debug=1", "heap.debug1.txt")
	fetch(base, "/debug/pprof/allocs?debug=1", "allocs.debug1.txt")
	fmt.Println(len(keep))
}
