/* "[HOST:]PORT": how every live source reads the address it is given on
 * the command line, one reading for all of them.
 *
 *     PORT              the caller's default host
 *     HOST:PORT         a name, an IPv4 address (or an IPv6 one: the
 *                       port is after the last colon)
 *     [IPV6]:PORT       an IPv6 address in brackets
 *     HOST, [IPV6]      the caller's default port, where it has one
 *
 * PORT is decimal, 1 to 65535; 0 too where the caller binds (`any_port`:
 * the system picks a free one).  Names are not resolved here. */
#ifndef WPROF_LIVE_ADDRESS_H
#define WPROF_LIVE_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>

/* Splits `address` into host and port; default_port NULL: a port must
 * be given.  False with a message in err ("'ADDRESS': not [HOST:]PORT";
 * err may be NULL with cap 0 when the caller says its own). */
bool net_split_address(const char *address, const char *default_host,
		       const char *default_port, bool any_port,
		       char *host, size_t host_cap, char *port, size_t port_cap,
		       char *err, size_t cap);

#endif
