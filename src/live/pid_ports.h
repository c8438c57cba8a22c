/* The TCP ports a process listens on at loopback (127.0.0.1 or ::1):
 * how `--inspect --pid PID` finds the inspector of `node --inspect=0`,
 * which picks a free port and writes it nowhere but its standard error.
 * Linux only: the process's socket inodes (/proc/PID/fd) matched against
 * the LISTEN entries of /proc/net/tcp and /proc/net/tcp6. */
#ifndef WPROF_LIVE_PID_PORTS_H
#define WPROF_LIVE_PID_PORTS_H

#include <stdbool.h>
#include <stddef.h>

struct pid_port {
	unsigned port;
	bool v6; /* at ::1, else at 127.0.0.1 */
};

/* Up to `cap` ports in *ports, in the order the tables list them, their
 * count in *count (0: none yet).  False with err when the process cannot
 * be looked at (no such process, another user's). */
bool pid_loopback_ports(long pid, struct pid_port *ports, size_t cap, size_t *count,
			char *err, size_t err_cap);

#endif
