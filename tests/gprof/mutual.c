/* Mutual recursion: ping <-> pong, and a three-function cycle a -> b -> c -> a. */
#include <stdio.h>
__attribute__((noinline)) long spin(long n) { volatile long s = 0; for (long i = 0; i < n; i++) s += i; return s; }
__attribute__((noinline)) long pong(int n);
__attribute__((noinline)) long ping(int n) { spin(80000); return n ? pong(n - 1) : 0; }
__attribute__((noinline)) long pong(int n) { return n ? ping(n - 1) + 1 : spin(200000); }
__attribute__((noinline)) long c3(int n);
__attribute__((noinline)) long a3(int n) { return n ? c3(n - 1) : spin(1000); }
__attribute__((noinline)) long b3(int n) { spin(240000); return n ? a3(n - 1) : 0; }
__attribute__((noinline)) long c3(int n) { return n ? b3(n - 1) : 0; }
int main(void)
{
	long s = 0;
	for (int k = 0; k < 20; k++)
		s += ping(1000 + k);
	s += a3(3000) + b3(900);
	printf("%ld\n", s);
	return 0;
}
