/* A small WebSocket client (RFC 6455) and the one HTTP GET the inspector
 * needs (/json/list), over plain TCP on the address the user named.
 *
 * Hand-written because Debian 12 packages no WebSocket client that fits:
 * its libcurl (7.88) is built without WebSockets and libwebsockets-dev
 * is not installed here.  It does what the Chrome DevTools protocol
 * uses: text messages (fragmented or not), masking, ping/pong, close.
 * Every wait has a deadline and every message a size limit, so a peer
 * that says nothing, or too much, ends with a message, never a hang. */
#ifndef WPROF_LIVE_WS_H
#define WPROF_LIVE_WS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A message larger than this ends the connection (a profile of a long
 * window is a few MiB; a hostile peer does not get to fill memory). */
#define WS_MAX_MESSAGE (64u << 20)
/* /json/list is small. */
#define HTTP_MAX_BODY (1u << 20)

/* GET http://HOST:PORT/PATH: the body (malloc'd, NUL-terminated) of a 200
 * answer of at most HTTP_MAX_BODY bytes. */
bool http_get(const char *host, const char *port, const char *path,
	      int timeout_ms, char **body, size_t *len, char *err, size_t cap);

/* ws://HOST:PORT/PATH into its parts; false when it is not one. */
bool ws_split_url(const char *url, char *host, size_t host_cap, char *port,
		  size_t port_cap, char *path, size_t path_cap);

struct ws {
	int fd;
	uint8_t *in;          /* bytes read; in[in_pos..in_len) not yet taken */
	size_t in_pos, in_len, in_cap;
	char *msg;            /* the text message being put together */
	size_t msg_len, msg_cap;
	bool in_message;      /* a fragmented message has begun */
};

/* Connects to ws://HOST:PORT/PATH and does the opening handshake. */
bool ws_open(struct ws *w, const char *url, int timeout_ms, char *err, size_t cap);
bool ws_send_text(struct ws *w, const char *text, size_t len, char *err, size_t cap);
/* The next text message (in w->msg, NUL-terminated, valid until the next
 * call): 1; nothing before timeout_ms: 0; the peer closed, broke the
 * protocol or a limit: -1 with a message.  Pings are answered here. */
int ws_receive(struct ws *w, int timeout_ms, char *err, size_t cap);
void ws_close(struct ws *w);

#endif
