/* Loopback ports a process listens on; see pid_ports.h. */
#include "pid_ports.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* The inodes of the process's sockets ("socket:[INODE]" links). */
static bool socket_inodes(long pid, uint64_t **inodes, size_t *n, char *err, size_t cap)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%ld/fd", pid);
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, cap, "process %ld: %s", pid, strerror(errno));
		return false;
	}
	size_t have = 0;
	*inodes = NULL;
	*n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[400], link[64];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ssize_t len = readlink(path, link, sizeof(link) - 1);
		uint64_t inode;
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "socket:[%" SCNu64 "]", &inode) != 1)
			continue;
		GROW(*inodes, have, *n + 1);
		(*inodes)[(*n)++] = inode;
	}
	closedir(d);
	return true;
}

static bool loopback(const char *address)
{
	return !strcmp(address, "0100007F") ||
	       !strcmp(address, "00000000000000000000000001000000");
}

/* The table's LISTEN entries at loopback whose inode is one of ours. */
static void listening(const char *table, bool v6, const uint64_t *inodes, size_t n,
		      struct pid_port *ports, size_t cap, size_t *count)
{
	FILE *f = fopen(table, "r");
	if (!f)
		return;
	char line[512], address[40];
	unsigned port, state;
	uint64_t inode;
	while (fgets(line, sizeof(line), f) && *count < cap) {
		if (sscanf(line, " %*u: %39[0-9A-Fa-f]:%x %*s %x %*s %*s %*s %*s %*s %" SCNu64,
			   address, &port, &state, &inode) != 4)
			continue; /* the heading */
		if (state != 0x0A || !loopback(address))
			continue;
		for (size_t i = 0; i < n; i++)
			if (inodes[i] == inode)
				ports[(*count)++] = (struct pid_port){ port, v6 };
	}
	fclose(f);
}

bool pid_loopback_ports(long pid, struct pid_port *ports, size_t cap, size_t *count,
			char *err, size_t err_cap)
{
	uint64_t *inodes;
	size_t n;
	*count = 0;
	if (!socket_inodes(pid, &inodes, &n, err, err_cap))
		return false;
	listening("/proc/net/tcp", false, inodes, n, ports, cap, count);
	listening("/proc/net/tcp6", true, inodes, n, ports, cap, count);
	free(inodes);
	return true;
}
