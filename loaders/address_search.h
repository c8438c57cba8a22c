/* Sorted tables of code addresses (an executable's symbols, a profile's
 * `--- symbol` names) are searched one way: for the entry with the
 * greatest address at or below a program counter, the function that
 * holds it.  The table is an array of structs sorted by a uint64_t
 * field; ties are settled toward the last such entry. */
#ifndef WPROF_ADDRESS_SEARCH_H
#define WPROF_ADDRESS_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The entry of `table` (n entries of `size` bytes, the address at
 * `offset` in each) with the greatest address <= addr, or NULL. */
static inline const void *greatest_at_or_below(const void *table, size_t n, size_t size,
					       size_t offset, uint64_t addr)
{
	const unsigned char *base = table;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t at;
		memcpy(&at, base + mid * size + offset, sizeof(at));
		if (at <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? base + (lo - 1) * size : NULL;
}

/* The same on a typed array: GREATEST_AT_OR_BELOW(syms, nsyms, addr, pc). */
#define GREATEST_AT_OR_BELOW(array, n, field, addr)                              \
	((__typeof__(&(array)[0]))greatest_at_or_below(                           \
		(array), (n), sizeof(*(array)),                                  \
		offsetof(__typeof__(*(array)), field), (addr)))

#endif
