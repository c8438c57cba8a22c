/* Direct recursion: fib calls itself; deep recurses down to a loop. */
#include <stdio.h>
__attribute__((noinline)) long spin(long n) { volatile long s = 0; for (long i = 0; i < n; i++) s += i; return s; }
__attribute__((noinline)) long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) long deep(int d) { return d == 0 ? spin(100000000) : deep(d - 1) + 1; }
int main(void)
{
	long s = fib(32) + deep(50) + deep(20);
	printf("%ld\n", s);
	return 0;
}
