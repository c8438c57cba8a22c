#include <stdio.h>
#include <stdlib.h>

static unsigned mix(unsigned x)
{
	x ^= x >> 16;
	x *= 0x45d9f3bu;
	x ^= x >> 16;
	return x;
}

__attribute__((noinline)) unsigned churn(unsigned n)
{
	unsigned acc = 0;
	for (unsigned i = 0; i < n; i++)
		acc += mix(i + acc);
	return acc;
}

__attribute__((noinline)) unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

__attribute__((noinline)) void sort_work(int n)
{
	int *v = malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		v[i] = (int)mix((unsigned)i);
	qsort(v, n, sizeof(int), compare_ints);
	free(v);
}

int main(void)
{
	unsigned total = 0;
	for (int round = 0; round < 3; round++) {
		total += churn(20000000);
		total += fib(30);
		sort_work(400000);
	}
	printf("%u\n", total);
	return 0;
}
