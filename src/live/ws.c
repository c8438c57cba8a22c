/* RFC 6455 client and an HTTP/1.1 GET; see ws.h for why by hand. */
#include "ws.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "address.h"
#include "base/util.h"

/* The handshake answer and HTTP headers are small; a peer that sends
 * more without ending them is not a server we talk to. */
#define MAX_HEADERS (16u << 10)

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool wait_fd(int fd, short events, double deadline)
{
	for (;;) {
		double left = deadline - now_ms();
		if (left <= 0)
			return false;
		struct pollfd pfd = { fd, events, 0 };
		int r = poll(&pfd, 1, (int)left + 1);
		if (r > 0)
			return true;
		if (r < 0 && errno != EINTR)
			return false;
	}
}

/* Connects within timeout_ms; the descriptor or -1 with a message
 * (without the address: callers name it). */
static int net_dial(const char *host, const char *port, int timeout_ms,
		    char *err, size_t cap)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	int rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		snprintf(err, cap, "%s", gai_strerror(rc));
		return -1;
	}
	int fd = -1, last = ECONNREFUSED;
	double deadline = now_ms() + timeout_ms;
	for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) && errno == EINPROGRESS &&
		    wait_fd(fd, POLLOUT, deadline)) {
			int e = 0;
			socklen_t len = sizeof(e);
			getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len);
			errno = e;
		} else if (errno == EINPROGRESS) {
			errno = ETIMEDOUT;
		}
		if (errno && errno != EISCONN) {
			last = errno;
			close(fd);
			fd = -1;
		}
		errno = 0;
	}
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(err, cap, "%s", strerror(last));
	return fd;
}

static bool send_all(int fd, const void *data, size_t len, char *err, size_t cap)
{
	const char *p = data;
	double deadline = now_ms() + 10000;
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!wait_fd(fd, POLLOUT, deadline)) {
				snprintf(err, cap, "the peer takes nothing for 10 s");
				return false;
			}
		} else {
			snprintf(err, cap, "write: %s", strerror(errno));
			return false;
		}
	}
	return true;
}

/* Reads what is there into buf (grown up to limit); 1 bytes came, 0 the
 * deadline passed, -1 closed or failed (message in err). */
static int read_some(int fd, uint8_t **buf, size_t *len, size_t *buf_cap,
		     size_t limit, double deadline, char *err, size_t cap)
{
	if (!wait_fd(fd, POLLIN, deadline))
		return 0;
	if (*len + 65536 > *buf_cap) {
		*buf_cap = *len + 65536 + *buf_cap / 2;
		*buf = xrealloc(*buf, *buf_cap);
	}
	/* One byte kept free: read_headers ends what came with a NUL. */
	ssize_t n = recv(fd, *buf + *len, *buf_cap - *len - 1, 0);
	if (n == 0) {
		snprintf(err, cap, "the peer closed the connection");
		return -1;
	}
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 1;
		snprintf(err, cap, "read: %s", strerror(errno));
		return -1;
	}
	*len += (size_t)n;
	if (*len > limit) {
		snprintf(err, cap, "the peer sent more than %zu bytes", limit);
		return -1;
	}
	return 1;
}

/* Reads until the blank line that ends the headers; *header_len is
 * where the body starts. */
static bool read_headers(int fd, uint8_t **buf, size_t *len, size_t *buf_cap,
			 size_t *header_len, double deadline, char *err, size_t cap)
{
	for (;;) {
		if (*len) {
			(*buf)[*len] = 0;
			char *end = strstr((char *)*buf, "\r\n\r\n");
			if (end) {
				*header_len = (size_t)(end - (char *)*buf) + 4;
				return true;
			}
		}
		int r = read_some(fd, buf, len, buf_cap, MAX_HEADERS, deadline, err, cap);
		if (r == 0)
			snprintf(err, cap, "the peer does not answer");
		if (r <= 0)
			return false;
	}
}

static const char *header_value(const char *headers, const char *name)
{
	size_t n = strlen(name);
	for (const char *line = strstr(headers, "\r\n"); line; line = strstr(line, "\r\n")) {
		line += 2;
		if (!strncasecmp(line, name, n) && line[n] == ':') {
			const char *v = line + n + 1;
			return v + strspn(v, " \t");
		}
	}
	return NULL;
}

bool http_get(const char *host, const char *port, const char *path,
	      int timeout_ms, char **body, size_t *len, char *err, size_t cap)
{
	int fd = net_dial(host, port, timeout_ms, err, cap);
	if (fd < 0)
		return false;
	char req[1024];
	int n = snprintf(req, sizeof(req),
			 "GET %s HTTP/1.1\r\nHost: %s:%s\r\nConnection: close\r\n\r\n",
			 path, host, port);
	uint8_t *buf = NULL;
	size_t got = 0, buf_cap = 0, head = 0;
	double deadline = now_ms() + timeout_ms;
	bool ok = send_all(fd, req, (size_t)n, err, cap) &&
		  read_headers(fd, &buf, &got, &buf_cap, &head, deadline, err, cap);
	if (ok && strncmp((char *)buf, "HTTP/1.1 200", 12) &&
	    strncmp((char *)buf, "HTTP/1.0 200", 12)) {
		snprintf(err, cap, "GET %s: not a 200 answer", path);
		ok = false;
	}
	const char *length = ok ? header_value((char *)buf, "Content-Length") : NULL;
	size_t want = length ? strtoul(length, NULL, 10) : HTTP_MAX_BODY + 1;
	if (length && want > HTTP_MAX_BODY) {
		snprintf(err, cap, "GET %s: a body of %zu bytes (at most %u)", path, want,
			 HTTP_MAX_BODY);
		ok = false;
	}
	while (ok && got - head < want) {
		int r = read_some(fd, &buf, &got, &buf_cap, head + HTTP_MAX_BODY, deadline,
				  err, cap);
		if (r == -1 && !length && !strcmp(err, "the peer closed the connection"))
			break;
		if (r == 0)
			snprintf(err, cap, "GET %s: the body does not come", path);
		ok = r > 0;
	}
	close(fd);
	if (!ok) {
		free(buf);
		return false;
	}
	*len = length ? want : got - head;
	*body = xmalloc(*len + 1);
	memcpy(*body, buf + head, *len);
	(*body)[*len] = '\0';
	free(buf);
	return true;
}

bool ws_split_url(const char *url, char *host, size_t host_cap, char *port,
		  size_t port_cap, char *path, size_t path_cap)
{
	if (strncmp(url, "ws://", 5))
		return false;
	const char *authority = url + 5;
	const char *slash = strchr(authority, '/');
	size_t alen = slash ? (size_t)(slash - authority) : strlen(authority);
	char address[300];
	if (!alen || alen >= sizeof(address) || strlen(slash ? slash : "/") >= path_cap)
		return false;
	memcpy(address, authority, alen);
	address[alen] = '\0';
	if (!strchr(address, ':') || address[alen - 1] == ']')
		return false; /* the inspector always names its port */
	strcpy(path, slash ? slash : "/");
	return net_split_address(address, "", "", false, host, host_cap, port,
				 port_cap, NULL, 0);
}

static void base64(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		out[o++] = digits[v >> 18];
		out[o++] = digits[(v >> 12) & 63];
		out[o++] = i + 1 < n ? digits[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? digits[v & 63] : '=';
	}
	out[o] = '\0';
}

static uint32_t rol(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

/* SHA-1, only to check the server's Sec-WebSocket-Accept. */
static void sha1(const uint8_t *data, size_t len, uint8_t out[20])
{
	uint32_t h[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0 };
	size_t total = (len + 9 + 63) / 64 * 64;
	uint8_t *msg = xcalloc(total, 1);
	memcpy(msg, data, len);
	msg[len] = 0x80;
	for (int i = 0; i < 8; i++)
		msg[total - 1 - i] = (uint8_t)((uint64_t)len * 8 >> (8 * i));
	for (size_t block = 0; block < total; block += 64) {
		uint32_t w[80];
		for (int i = 0; i < 16; i++) {
			const uint8_t *p = msg + block + 4 * i;
			w[i] = (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
		}
		for (int i = 16; i < 80; i++)
			w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
		uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
		for (int i = 0; i < 80; i++) {
			uint32_t f, k;
			if (i < 20)
				f = (b & c) | (~b & d), k = 0x5A827999;
			else if (i < 40)
				f = b ^ c ^ d, k = 0x6ED9EBA1;
			else if (i < 60)
				f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
			else
				f = b ^ c ^ d, k = 0xCA62C1D6;
			uint32_t t = rol(a, 5) + f + e + k + w[i];
			e = d, d = c, c = rol(b, 30), b = a, a = t;
		}
		h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
	}
	free(msg);
	for (int i = 0; i < 20; i++)
		out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static bool handshake(struct ws *w, const char *host, const char *port,
		      const char *path, int timeout_ms, char *err, size_t cap)
{
	uint8_t nonce[16];
	if (getrandom(nonce, sizeof(nonce), 0) != sizeof(nonce))
		memset(nonce, 0x5a, sizeof(nonce));
	char key[32], req[1400], expected[32], accept_src[80];
	base64(nonce, sizeof(nonce), key);
	int n = snprintf(req, sizeof(req),
			 "GET %s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\n"
			 "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
			 "Sec-WebSocket-Version: 13\r\n\r\n", path, host, port, key);
	snprintf(accept_src, sizeof(accept_src), "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
	uint8_t digest[20];
	sha1((const uint8_t *)accept_src, strlen(accept_src), digest);
	base64(digest, sizeof(digest), expected);
	size_t head = 0;
	if (!send_all(w->fd, req, (size_t)n, err, cap) ||
	    !read_headers(w->fd, &w->in, &w->in_len, &w->in_cap, &head,
			  now_ms() + timeout_ms, err, cap))
		return false;
	const char *accept = header_value((char *)w->in, "Sec-WebSocket-Accept");
	if (strncmp((char *)w->in, "HTTP/1.1 101", 12) || !accept ||
	    strncmp(accept, expected, strlen(expected))) {
		snprintf(err, cap, "not a WebSocket server (no 101 answer with the right "
			 "Sec-WebSocket-Accept)");
		return false;
	}
	memmove(w->in, w->in + head, w->in_len - head);
	w->in_len -= head;
	return true;
}

bool ws_open(struct ws *w, const char *url, int timeout_ms, char *err, size_t cap)
{
	*w = (struct ws){ .fd = -1 };
	char host[256], port[8], path[1024];
	if (!ws_split_url(url, host, sizeof(host), port, sizeof(port), path, sizeof(path))) {
		snprintf(err, cap, "'%s': not ws://HOST:PORT/PATH", url);
		return false;
	}
	w->fd = net_dial(host, port, timeout_ms, err, cap);
	if (w->fd >= 0 && handshake(w, host, port, path, timeout_ms, err, cap))
		return true;
	ws_close(w);
	return false;
}

static bool send_frame(struct ws *w, int opcode, const void *data, size_t len,
		       char *err, size_t cap)
{
	uint8_t head[14];
	size_t n = 0;
	head[n++] = (uint8_t)(0x80 | opcode);
	if (len < 126) {
		head[n++] = (uint8_t)(0x80 | len);
	} else if (len < 65536) {
		head[n++] = 0x80 | 126;
		head[n++] = (uint8_t)(len >> 8);
		head[n++] = (uint8_t)len;
	} else {
		head[n++] = 0x80 | 127;
		for (int i = 7; i >= 0; i--)
			head[n++] = (uint8_t)((uint64_t)len >> (8 * i));
	}
	uint8_t mask[4];
	if (getrandom(mask, 4, 0) != 4)
		memset(mask, 0x37, 4);
	memcpy(head + n, mask, 4);
	n += 4;
	uint8_t *masked = xmalloc(len + 1);
	for (size_t i = 0; i < len; i++)
		masked[i] = ((const uint8_t *)data)[i] ^ mask[i & 3];
	bool ok = send_all(w->fd, head, n, err, cap) && send_all(w->fd, masked, len, err, cap);
	free(masked);
	return ok;
}

bool ws_send_text(struct ws *w, const char *text, size_t len, char *err, size_t cap)
{
	return send_frame(w, 1, text, len, err, cap);
}

/* One whole frame at the front of w->in: its size, or 0 when more bytes
 * are needed, or -1 (err) when it breaks a rule or a limit. */
static long long frame_size(struct ws *w, size_t *header, uint64_t *payload,
			    char *err, size_t cap)
{
	const uint8_t *p = w->in + w->in_pos;
	size_t avail = w->in_len - w->in_pos;
	if (avail < 2)
		return 0;
	if (p[1] & 0x80) {
		snprintf(err, cap, "protocol error: a masked frame from the server");
		return -1;
	}
	if (p[0] & 0x70) {
		snprintf(err, cap, "protocol error: reserved bits set (byte 0x%02x)", p[0]);
		return -1;
	}
	uint64_t len = p[1] & 0x7f;
	size_t h = 2;
	if (len >= 126) {
		size_t extra = len == 126 ? 2 : 8;
		if (avail < 2 + extra)
			return 0;
		len = 0;
		for (size_t i = 0; i < extra; i++)
			len = len << 8 | p[2 + i];
		h += extra;
	}
	size_t so_far = w->in_message ? w->msg_len : 0;
	if (len > WS_MAX_MESSAGE || so_far + len > WS_MAX_MESSAGE) {
		snprintf(err, cap, "a message of more than %u MiB: dropped the connection",
			 WS_MAX_MESSAGE >> 20);
		return -1;
	}
	*header = h;
	*payload = len;
	return avail >= h + len ? (long long)(h + len) : 0;
}

/* Takes the frame at the front: 1 a whole text message is in w->msg, 0
 * nothing yet to hand out, -1 closed or wrong. */
static int take_frame(struct ws *w, size_t h, uint64_t len, char *err, size_t cap)
{
	int opcode = w->in[w->in_pos] & 0x0f;
	bool fin = w->in[w->in_pos] & 0x80;
	const uint8_t *payload = w->in + w->in_pos + h;
	if (opcode >= 8 && (len > 125 || !fin)) {
		snprintf(err, cap, "protocol error: a control frame of %llu bytes or "
			 "fragmented", (unsigned long long)len);
		return -1;
	}
	if (opcode == 9)
		return send_frame(w, 10, payload, (size_t)len, err, cap) ? 0 : -1;
	if (opcode == 10)
		return 0;
	if (opcode == 8) {
		snprintf(err, cap, "the peer closed the WebSocket");
		return -1;
	}
	bool start = opcode == 1 || opcode == 2;
	if ((start && w->in_message) || (opcode == 0 && !w->in_message) ||
	    (!start && opcode != 0)) {
		snprintf(err, cap, "protocol error: frame opcode %d out of place", opcode);
		return -1;
	}
	if (start)
		w->msg_len = 0;
	w->in_message = !fin;
	if (w->msg_len + len + 1 > w->msg_cap) {
		w->msg_cap = w->msg_len + (size_t)len + 1 + w->msg_cap / 2;
		w->msg = xrealloc(w->msg, w->msg_cap);
	}
	memcpy(w->msg + w->msg_len, payload, (size_t)len);
	w->msg_len += (size_t)len;
	w->msg[w->msg_len] = '\0';
	return fin ? 1 : 0;
}

int ws_receive(struct ws *w, int timeout_ms, char *err, size_t cap)
{
	double deadline = now_ms() + timeout_ms;
	for (;;) {
		size_t h;
		uint64_t len;
		long long size = frame_size(w, &h, &len, err, cap);
		if (size < 0)
			return -1;
		if (size > 0) {
			int r = take_frame(w, h, len, err, cap);
			w->in_pos += (size_t)size;
			if (r)
				return r;
			continue;
		}
		/* Frames are taken from the front by moving in_pos; the rest
		 * moves down once, before more is read, however many there were. */
		memmove(w->in, w->in + w->in_pos, w->in_len - w->in_pos);
		w->in_len -= w->in_pos;
		w->in_pos = 0;
		int r = read_some(w->fd, &w->in, &w->in_len, &w->in_cap,
				  WS_MAX_MESSAGE + 16, deadline, err, cap);
		if (r <= 0)
			return r;
	}
}

void ws_close(struct ws *w)
{
	if (w->fd >= 0) {
		char ignored[64];
		send_frame(w, 8, "\x03\xe8", 2, ignored, sizeof(ignored));
		close(w->fd);
	}
	free(w->in);
	free(w->msg);
	*w = (struct ws){ .fd = -1 };
}
