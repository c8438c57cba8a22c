/* Mutual recursion entered from main, as ../shared/corpus/programs/
 * validate.c's is_even/is_odd (built -O0 there): the cycle's time is
 * main's arc to is_even, both in gprof's call graph and in top-down. */
#include <stdio.h>
__attribute__((noinline)) int is_odd(unsigned n);
__attribute__((noinline)) int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
__attribute__((noinline)) long spin(long n) { volatile long s = 0; for (long i = 0; i < n; i++) s += i; return s; }
int main(void)
{
	long evens = 0;
	for (unsigned k = 0; k < 4000; k++)
		evens += is_even(20000 + k);
	printf("%ld %ld\n", evens, spin(30000000));
	return 0;
}
