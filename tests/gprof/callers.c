/* One function called from many places, with different amounts of work. */
#include <stdio.h>
__attribute__((noinline)) long leaf(long n) { volatile long s = 0; for (long i = 0; i < n; i++) s += i; return s; }
__attribute__((noinline)) long one(void) { return leaf(30000000); }
__attribute__((noinline)) long two(void) { return leaf(60000000) + leaf(5000000); }
__attribute__((noinline)) long three(void) { long s = 0; for (int i = 0; i < 30; i++) s += leaf(3000000); return s; }
__attribute__((noinline)) long four(void) { return one() + two() + leaf(120000000); }
int main(void)
{
	long s = one() + two() + three() + four() + leaf(15000000);
	printf("%ld\n", s);
	return 0;
}
