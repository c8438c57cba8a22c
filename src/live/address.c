/* "[HOST:]PORT" read one way for every live source (address.h). */
#include "address.h"

#include <stdio.h>
#include <string.h>

/* Decimal, within 1…65535 (0 too when any_port). */
static bool is_port(const char *p, bool any_port)
{
	size_t len = strlen(p);
	if (!len || strspn(p, "0123456789") != len)
		return false;
	unsigned long value = 0;
	for (; *p && value <= 65535; p++)
		value = value * 10 + (unsigned long)(*p - '0');
	return value <= 65535 && (value > 0 || any_port);
}

bool net_split_address(const char *address, const char *default_host,
		       const char *default_port, bool any_port,
		       char *host, size_t host_cap, char *port, size_t port_cap,
		       char *err, size_t cap)
{
	const char *h = default_host, *p = default_port ? default_port : "";
	size_t hlen = strlen(default_host);
	const char *colon = strrchr(address, ':');
	if (address[0] == '[') {
		const char *close = strchr(address, ']');
		if (!close || (close[1] && close[1] != ':')) {
			snprintf(err, cap, "'%s': not [IPv6]:PORT", address);
			return false;
		}
		h = address + 1;
		hlen = (size_t)(close - h);
		if (close[1])
			p = close + 2;
	} else if (colon) {
		h = address;
		hlen = (size_t)(colon - address);
		p = colon + 1;
	} else if (address[0] && strspn(address, "0123456789") == strlen(address)) {
		p = address;
	} else if (address[0]) {
		h = address;
		hlen = strlen(address);
	}
	if (!hlen || hlen >= host_cap || strlen(p) >= port_cap || !is_port(p, any_port)) {
		snprintf(err, cap, "'%s': not [HOST:]PORT", address);
		return false;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	strcpy(port, p);
	return true;
}
