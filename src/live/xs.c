/* Live mode (live.h): non-blocking sockets, one xsbug parser per peer,
 * commands queued in a small bounded buffer per peer; one lock between
 * the thread that serves the sockets and the one that asks. */
#include "xs.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "loaders/arcs.h"
#include "address.h"
#include "base/repeats.h"
#include "output/export.h"
#include "base/util.h"

#define READ_CHUNK (64 * 1024)
#define OUT_CAP 1024
#define ADDRESS_CAP 160 /* "[host]:port" with room for any numeric host */
/* Bytes read from one peer per readiness, so a fast engine cannot starve
 * the others (nor the TUI's keys). */
#define READ_BUDGET (1024 * 1024)

/* An engine that logged in and started no profile within this long
 * streams nothing (an xst built with mxProfile). */
#define SILENT_AFTER_MS 2000.0

/* What a peer speaks, told by its first byte that is not white space:
 * `<` for the xsbug protocol, anything else for WasmProf arc lines. */
enum peer_kind { PEER_UNKNOWN, PEER_XSBUG, PEER_ARCS };

/* A `<log>` line and its arrival time (seconds since the epoch). */
struct log_line {
	double when;
	char *text;
};

struct peer {
	struct xs *live;
	int fd; /* -1 once closed */
	enum peer_kind kind;
	char address[ADDRESS_CAP];
	char name[ADDRESS_CAP + 96]; /* login name and address, once logged in */
	char status[800];
	struct xsbug_parser *parser; /* PEER_XSBUG */
	struct arcs_parser *arcs;    /* PEER_ARCS */
	char out[OUT_CAP];
	size_t out_len;
	bool greeted;
	bool engine; /* logged in */
	uint64_t seen_generation;
	double login_ms; /* monotonic */
	/* Profiling asked of the engine and not yet confirmed by its `start`
	 * or `stop` time: an xst reads its socket only at a break. */
	enum xs_request request;
	/* Breaks: each is answered <go/> at once.  `suspended` from the
	 * break until the engine sends anything else or leaves; an engine
	 * that does not profile sends nothing when it resumes (no `resume`
	 * time), so for it the <go/> written is the end of the break. */
	uint64_t breaks;
	bool suspended;
	bool answering; /* the <go/> of the break not all written yet */
	uint64_t break_generation;
	char break_where[300];
	char break_text[200];
	/* The program's trace() output and the engine's warnings, the last
	 * LIVE_LOG_LINES of them (logs[n % LIVE_LOG_LINES] is the n-th). */
	struct log_line *logs;
	uint64_t nlogs;
};

/* Peers, engines and parsers are changed only by whoever serves the
 * sockets (the server thread, or the caller's own loop), under `lock`,
 * which the asking side takes to read them.  Peers are freed by the
 * server only, engines never before xs_free. */
struct xs {
	FILE *log;
	struct repeats said; /* the last line of the log, and how often */
	int listen_fd;
	int listen_port;
	struct peer *peers[XS_MAX_PEERS];
	size_t npeers;
	struct peer *engines[XS_MAX_PEERS]; /* in login order */
	size_t nengines;
	uint8_t *readbuf; /* the server's */
	pthread_mutex_t lock;
	bool serving;  /* xs_serve's thread runs */
	bool stopping; /* it is asked to end */
	pthread_t server;
	int wake[2];   /* a byte wakes the server's poll(): a command, the end */
};

static void lock(struct xs *l)
{
	pthread_mutex_lock(&l->lock);
}

static void unlock(struct xs *l)
{
	pthread_mutex_unlock(&l->lock);
}

static double monotonic_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

struct xs *xs_new(FILE *log)
{
	struct xs *l = xcalloc(1, sizeof(*l));
	l->log = log;
	l->listen_fd = -1;
	l->readbuf = xmalloc(READ_CHUNK);
	pthread_mutex_init(&l->lock, NULL);
	l->wake[0] = l->wake[1] = -1;
	return l;
}

/* Every close of ours is a reset (SO_LINGER {1, 0}, then close), never a
 * normal close (FIN), because of what an xst does with either (measured
 * on XS 17.9, docs/live.md):
 * - at a break it reads its socket, and takes an end of file for no
 *   data: it loops on read() = 0 at full speed for ever.  A reset makes
 *   that read fail (ECONNRESET): it detaches, its later `debugger`
 *   statements do nothing, and it runs to its end;
 * - running, it ignores SIGPIPE no more (only while it connects): after
 *   a FIN its next write draws a reset from this side, and the write
 *   after that kills it (EPIPE, SIGPIPE, exit status 141).  After our
 *   reset its first write fails with ECONNRESET, which raises no signal,
 *   and it detaches as above.
 * A command still queued is written first (xs_free), but the reset does
 * the work: an engine at a break whose <go/> it discards detaches all
 * the same. */
static void close_with_reset(int fd)
{
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
	close(fd);
}

static void peer_close(struct peer *p)
{
	if (p->fd >= 0)
		close_with_reset(p->fd);
	p->fd = -1;
}

/* The engine has closed its end: nothing of ours can hurt it now. */
static void peer_closed_by_engine(struct peer *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

/* A break costs the engine a round trip at least: it writes its break in
 * pieces of at most 256 bytes with Nagle's algorithm on, so each piece
 * after the first waits for this side's acknowledgement, which Linux
 * delays up to 40 ms once the exchange looks interactive (a break took
 * about 45 ms; 3 000 `debugger` statements over 2 minutes).  So every
 * read is acknowledged at once (TCP_QUICKACK, which Linux turns off
 * again by itself: quick_ack re-arms it after each read), and our small
 * commands leave at once too (TCP_NODELAY). */
static void quick_ack(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
}

static void set_interactive(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	quick_ack(fd);
}

static void peer_free(struct peer *p)
{
	peer_close(p);
	if (p->logs)
		for (size_t k = 0; k < LIVE_LOG_LINES; k++)
			free(p->logs[k].text);
	free(p->logs);
	xsbug_parser_free(p->parser);
	arcs_parser_free(p->arcs);
	free(p);
}

static void wake_server(struct xs *l)
{
	if (!l->serving)
		return;
	/* When the pipe is full, the server is being woken already. */
	ssize_t ignored = write(l->wake[1], "", 1);
	(void)ignored;
}

static void flush_out(struct xs *l, struct peer *p);

static void stop_server(struct xs *l)
{
	if (!l->serving)
		return;
	lock(l);
	l->stopping = true;
	unlock(l);
	wake_server(l);
	pthread_join(l->server, NULL);
	l->serving = false;
}

/* Commands still queued (a <go/> above all: an engine left at a break
 * whose socket closes spins at full speed) are written before the
 * sockets close; they are a few bytes, which the socket takes at once. */
static void flush_before_closing(struct xs *l)
{
	for (size_t i = 0; i < l->npeers; i++) {
		struct peer *p = l->peers[i];
		for (int tries = 0; p->out_len && p->fd >= 0 && tries < 100; tries++) {
			struct pollfd out = { .fd = p->fd, .events = POLLOUT };
			poll(&out, 1, 10);
			flush_out(l, p);
		}
	}
}

void xs_free(struct xs *l)
{
	if (!l)
		return;
	stop_server(l);
	flush_before_closing(l);
	if (l->log)
		repeats_end(&l->said, l->log);
	for (int end = 0; end < 2; end++)
		if (l->wake[end] >= 0)
			close(l->wake[end]);
	pthread_mutex_destroy(&l->lock);
	for (size_t i = 0; i < l->npeers; i++)
		peer_free(l->peers[i]);
	if (l->listen_fd >= 0)
		close(l->listen_fd);
	free(l->readbuf);
	free(l);
}

/* Engines send what they like: what reaches a terminal is escaped.  A
 * program that logs the same caught exception in a loop gets it said
 * once, with a count (repeats.h). */
static void tell(struct xs *l, const struct peer *p, const char *text)
{
	if (!l->log)
		return;
	const char *who = p->engine ? p->name : p->address;
	size_t cap = strlen(who) + strlen(text) + 3;
	char *line = xmalloc(cap);
	snprintf(line, cap, "%s: %s", who, text);
	repeats_say(&l->said, l->log, line);
	free(line);
}

static void say(struct xs *l, struct peer *p, const char *fmt, const char *what)
{
	snprintf(p->status, sizeof(p->status), fmt, what);
	tell(l, p, p->status);
}

/* ---- addresses -------------------------------------------------------- */

static struct addrinfo *resolve(const char *address, bool passive, char *err,
				size_t cap)
{
	char host[256], port[8];
	/* A bare port listens on, or dials, the loopback only; port 0, when
	 * listening, binds any free one. */
	if (!net_split_address(address, "127.0.0.1", NULL, passive, host,
			       sizeof(host), port, sizeof(port), NULL, 0)) {
		snprintf(err, cap, "'%s' is not [HOST:]PORT", address);
		return NULL;
	}
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = passive ? AI_PASSIVE : 0 };
	struct addrinfo *res;
	int rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		snprintf(err, cap, "%s: %s", address, gai_strerror(rc));
		return NULL;
	}
	return res;
}

static void set_nonblocking(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void describe(const struct sockaddr *sa, socklen_t len, char *out,
		     size_t cap)
{
	char host[NI_MAXHOST < 128 ? NI_MAXHOST : 128], port[16];
	if (getnameinfo(sa, len, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(out, cap, "peer");
	else if (strchr(host, ':'))
		snprintf(out, cap, "[%s]:%s", host, port);
	else
		snprintf(out, cap, "%s:%s", host, port);
}

/* A burst of engines connecting at once must not overflow the queue of
 * pending connections (one that does waits a second for its SYN to be
 * sent again): the system's maximum, which listen() caps larger values
 * to anyway. */
static int listen_backlog(void)
{
	int n = 0;
	FILE *f = fopen("/proc/sys/net/core/somaxconn", "r");
	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n > 0 ? n : SOMAXCONN;
}

bool xs_listen(struct xs *l, const char *address, char *err, size_t cap)
{
	struct addrinfo *res = resolve(address, true, err, cap);
	if (!res)
		return false;
	int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) ||
	    listen(fd, listen_backlog())) {
		snprintf(err, cap, "cannot listen on %s: %s", address, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(res);
		return false;
	}
	freeaddrinfo(res);
	set_nonblocking(fd);
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	getsockname(fd, (struct sockaddr *)&ss, &len);
	char bound[ADDRESS_CAP];
	describe((struct sockaddr *)&ss, len, bound, sizeof(bound));
	l->listen_port = atoi(strrchr(bound, ':') + 1);
	l->listen_fd = fd;
	return true;
}

int xs_listen_port(const struct xs *l)
{
	return l->listen_port;
}

static struct peer *add_peer(struct xs *l, int fd, const char *address)
{
	struct peer *p = xcalloc(1, sizeof(*p));
	p->live = l;
	p->fd = fd;
	set_interactive(fd);
	snprintf(p->address, sizeof(p->address), "%s", address);
	l->peers[l->npeers++] = p;
	return p;
}

bool xs_connect(struct xs *l, const char *address, char *err, size_t cap)
{
	if (l->npeers >= XS_MAX_PEERS) {
		snprintf(err, cap, "too many connections");
		return false;
	}
	struct addrinfo *res = resolve(address, false, err, cap);
	if (!res)
		return false;
	int fd = -1;
	for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen)) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, cap, "cannot connect to %s: %s", address, strerror(errno));
		return false;
	}
	set_nonblocking(fd);
	add_peer(l, fd, address);
	return true;
}

/* ---- the loop --------------------------------------------------------- */

static size_t poll_fds(const struct xs *l, struct pollfd *fds, size_t cap)
{
	size_t n = 0;
	if (l->listen_fd >= 0 && n < cap)
		fds[n++] = (struct pollfd){ .fd = l->listen_fd, .events = POLLIN };
	for (size_t i = 0; i < l->npeers && n < cap; i++) {
		const struct peer *p = l->peers[i];
		if (p->fd < 0)
			continue;
		short events = POLLIN;
		if (p->out_len)
			events |= POLLOUT;
		fds[n++] = (struct pollfd){ .fd = p->fd, .events = events };
	}
	return n;
}

size_t xs_poll_fds(struct xs *l, struct pollfd *fds, size_t cap)
{
	lock(l);
	size_t n = poll_fds(l, fds, cap);
	unlock(l);
	return n;
}

/* Queues a command; commands are tiny, so a peer that lets them pile up
 * past the buffer is not reading and loses the newest. */
static bool send_command(struct peer *p, const char *command)
{
	size_t len = strlen(command);
	if (p->fd < 0 || p->out_len + len > OUT_CAP)
		return false;
	memcpy(p->out + p->out_len, command, len);
	p->out_len += len;
	return true;
}

static void flush_out(struct xs *l, struct peer *p)
{
	while (p->out_len && p->fd >= 0) {
		ssize_t sent = send(p->fd, p->out, p->out_len, MSG_NOSIGNAL);
		if (sent < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				say(l, p, "write failed: %s", strerror(errno));
				peer_close(p);
			}
			return;
		}
		memmove(p->out, p->out + sent, p->out_len - (size_t)sent);
		p->out_len -= (size_t)sent;
	}
	if (p->answering && !p->out_len) {
		p->answering = false;
		if (!xsbug_profiling(p->parser))
			p->suspended = false;
	}
}

/* The login is answered at once: profiling on, then go, so the engine
 * runs with the profiler already started. */
static void become_engine(struct xs *l, struct peer *p, const char *login)
{
	p->engine = true;
	char safe[96];
	snprintf(safe, sizeof(safe), "%s", login);
	for (char *c = safe; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	snprintf(p->name, sizeof(p->name), "%s@%s", safe, p->address);
	p->login_ms = monotonic_ms();
	l->engines[l->nengines++] = p;
}

static void greet(struct xs *l, struct peer *p)
{
	const char *login = xsbug_login_name(p->parser);
	if (p->greeted || !login)
		return;
	p->greeted = true;
	become_engine(l, p, login);
	send_command(p, "\r\n<start-profiling/>\r\n");
	send_command(p, "\r\n<go/>\r\n");
	say(l, p, "%s", "logged in");
}

/* An arc stream has no login: it counts once it printed its table. */
static void arcs_printed(struct xs *l, struct peer *p)
{
	if (p->engine || !arcs_parser_prints(p->arcs))
		return;
	become_engine(l, p, "arcs");
	say(l, p, "%s", "sent WasmProf arcs");
}

/* ---- breaks and logs ---------------------------------------------------- */

static void where_of(const struct xsbug_message *m, char *out, size_t cap)
{
	if (m->path && m->line >= 0)
		snprintf(out, cap, "%s:%d", m->path, (int)m->line);
	else
		snprintf(out, cap, "%s", m->path ? m->path : "");
}

/* A `debugger` statement (or a breakpoint, or an exception it was told to
 * stop at: wprof-tui sets none) stops the engine until its debugger says
 * <go/>; an engine left there waits forever, and one whose socket then
 * closes spins.  wprof-tui is not a debugger: it answers at once. */
static void on_break(struct peer *p, const struct xsbug_message *m)
{
	struct xs *l = p->live;
	bool released = send_command(p, "\r\n<go/>\r\n");
	p->breaks++;
	p->suspended = true;
	p->answering = released;
	/* Now, not after the rest of this read and the other peers': the
	 * engine waits. */
	flush_out(l, p);
	released = released && p->fd >= 0;
	p->break_generation = xsbug_generation(p->parser);
	where_of(m, p->break_where, sizeof(p->break_where));
	const char *text = m->text;
	if (text[0] == '#' && text[1] == ' ') /* "# Break: debugger!" */
		text += 2;
	snprintf(p->break_text, sizeof(p->break_text), "%s", text);
	char line[sizeof(p->status)];
	snprintf(line, sizeof(line), "stopped at %s (%s); %s", p->break_where,
		 p->break_text, released
			? "released it: wprof-tui profiles, it is not a debugger"
			: "cannot release it: it reads no commands");
	snprintf(p->status, sizeof(p->status), "%s", line);
	tell(l, p, line);
}

static void on_log(struct peer *p, const struct xsbug_message *m)
{
	char where[300], line[1400];
	where_of(m, where, sizeof(where));
	const char *text = m->text;
	if (text[0] == '#' && text[1] == ' ') /* "# Exception: …" */
		text += 2;
	snprintf(line, sizeof(line), "%s%s%s%s", where, where[0] ? ": " : "",
		 text, m->cut ? "…" : "");
	if (!p->logs)
		p->logs = xcalloc(LIVE_LOG_LINES, sizeof(*p->logs));
	struct log_line *slot = &p->logs[p->nlogs++ % LIVE_LOG_LINES];
	free(slot->text);
	slot->text = xstrdup(line);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	slot->when = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	p->suspended = false; /* it runs */
	char said[1410];
	snprintf(said, sizeof(said), "log: %s", line);
	tell(p->live, p, said);
}

static void on_message(void *ctx, const struct xsbug_message *m)
{
	struct peer *p = ctx;
	/* A login read in the same piece as this message names the engine
	 * before the message is said, so its lines carry one name. */
	greet(p->live, p);
	if (m->is_break)
		on_break(ctx, m);
	else
		on_log(ctx, m);
}

static bool choose_kind(struct peer *p, const uint8_t *bytes, size_t len)
{
	for (size_t i = 0; i < len && p->kind == PEER_UNKNOWN; i++) {
		if (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' ||
		    bytes[i] == '\n')
			continue;
		if (bytes[i] == '<') {
			p->kind = PEER_XSBUG;
			p->parser = xsbug_parser_new(NULL);
			xsbug_parser_on_message(p->parser, on_message, p);
		} else {
			p->kind = PEER_ARCS;
			p->arcs = arcs_parser_new();
		}
	}
	return p->kind != PEER_UNKNOWN;
}

/* False, with err, when the peer must be dropped. */
static bool feed_peer(struct xs *l, struct peer *p, const uint8_t *bytes,
		      size_t len, struct load_error *err)
{
	if (!choose_kind(p, bytes, len))
		return true;
	if (p->kind == PEER_ARCS) {
		if (!arcs_parser_feed(p->arcs, bytes, len, err))
			return false;
		arcs_printed(l, p);
		return true;
	}
	if (!xsbug_parser_feed(p->parser, bytes, len, err))
		return false;
	greet(l, p);
	/* Anything after a break but a log says the engine runs again. */
	if (p->suspended && xsbug_generation(p->parser) != p->break_generation)
		p->suspended = false;
	if (p->request != XS_REQUEST_NONE &&
	    xsbug_profiling(p->parser) == (p->request == XS_REQUEST_START))
		p->request = XS_REQUEST_NONE;
	return true;
}

/* Forgets a peer that never logged in once it is gone; engines stay, with
 * what they sent. */
static void reap(struct xs *l)
{
	size_t kept = 0;
	for (size_t i = 0; i < l->npeers; i++) {
		struct peer *p = l->peers[i];
		if (p->fd < 0 && !p->engine)
			peer_free(p);
		else
			l->peers[kept++] = p;
	}
	l->npeers = kept;
}

/* A last arc line without its newline still counts; a cut xsbug message
 * is said. */
static void on_eof(struct xs *l, struct peer *p)
{
	struct load_error err;
	bool whole = true;
	if (p->kind == PEER_XSBUG)
		whole = xsbug_parser_end(p->parser);
	else if (p->kind == PEER_ARCS && arcs_parser_end(p->arcs, &err)) {
		arcs_printed(l, p);
	}
	say(l, p, "%s", whole ? "disconnected"
			      : "disconnected mid-message; keeping what arrived");
	peer_closed_by_engine(p);
	p->suspended = false;
	p->request = XS_REQUEST_NONE;
}

/* Only the server reads and closes the sockets, so the lock is let go
 * meanwhile: the other side takes its snapshots between two chunks. */
static ssize_t receive(struct xs *l, int fd)
{
	unlock(l);
	ssize_t got = recv(fd, l->readbuf, READ_CHUNK, 0);
	int saved = errno;
	if (got > 0)
		quick_ack(fd);
	lock(l);
	errno = saved;
	return got;
}

static void read_peer(struct xs *l, struct peer *p)
{
	for (size_t budget = 0; budget < READ_BUDGET && p->fd >= 0;) {
		ssize_t got = receive(l, p->fd);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (got <= 0) {
			if (got < 0)
				say(l, p, "read failed: %s", strerror(errno));
			on_eof(l, p);
			break;
		}
		budget += (size_t)got;
		struct load_error err;
		if (!feed_peer(l, p, l->readbuf, (size_t)got, &err)) {
			say(l, p, "dropped: %s", err.message);
			peer_close(p);
			break;
		}
	}
}

static void accept_peers(struct xs *l)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int fd = accept4(l->listen_fd, (struct sockaddr *)&ss, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		reap(l);
		if (l->npeers >= XS_MAX_PEERS) {
			/* Full: the newcomer is turned away, by a reset (an xst
			 * waiting for its login's answer spins on an end of
			 * file). */
			close_with_reset(fd);
			continue;
		}
		char address[ADDRESS_CAP];
		describe((struct sockaddr *)&ss, len, address, sizeof(address));
		add_peer(l, fd, address);
	}
}

static struct peer *peer_of_fd(const struct xs *l, int fd)
{
	for (size_t i = 0; i < l->npeers; i++)
		if (l->peers[i]->fd == fd)
			return l->peers[i];
	return NULL;
}

void xs_handle(struct xs *l, const struct pollfd *fds, size_t n)
{
	lock(l);
	for (size_t i = 0; i < n; i++) {
		if (!fds[i].revents)
			continue;
		if (fds[i].fd == l->listen_fd) {
			accept_peers(l);
			continue;
		}
		struct peer *p = peer_of_fd(l, fds[i].fd);
		if (!p)
			continue;
		if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
			read_peer(l, p);
		if (fds[i].revents & POLLOUT)
			flush_out(l, p);
	}
	for (size_t i = 0; i < l->npeers; i++)
		flush_out(l, l->peers[i]);
	reap(l);
	unlock(l);
}

/* The server thread: the sockets and the wake pipe, until xs_free. */
static void *serve(void *arg)
{
	struct xs *l = arg;
	struct pollfd fds[XS_MAX_PEERS + 2];
	for (;;) {
		lock(l);
		bool stopping = l->stopping;
		size_t n = poll_fds(l, fds + 1, XS_MAX_PEERS + 1);
		unlock(l);
		if (stopping)
			return NULL;
		fds[0] = (struct pollfd){ .fd = l->wake[0], .events = POLLIN };
		if (poll(fds, n + 1, -1) < 0 && errno != EINTR)
			return NULL; /* out of memory: the engines then wait */
		char drain[64];
		if (fds[0].revents)
			while (read(l->wake[0], drain, sizeof(drain)) > 0)
				continue;
		xs_handle(l, fds + 1, n);
	}
}

bool xs_serve(struct xs *l, char *err, size_t cap)
{
	if (pipe2(l->wake, O_CLOEXEC | O_NONBLOCK)) {
		snprintf(err, cap, "pipe: %s", strerror(errno));
		return false;
	}
	/* Signals are the caller's to see: the thread blocks them all. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&l->server, NULL, serve, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		snprintf(err, cap, "cannot start the network thread: %s", strerror(rc));
		return false;
	}
	l->serving = true;
	return true;
}

/* ---- engines ---------------------------------------------------------- */

size_t xs_engine_count(struct xs *l)
{
	lock(l);
	size_t n = l->nengines;
	unlock(l);
	return n;
}

/* Returns with the lock held: the caller reads, then unlocks. */
static struct peer *lock_engine(struct xs *l, size_t i)
{
	lock(l);
	return l->engines[i];
}

/* Written once, before the engine is counted: it stays as it is. */
const char *xs_engine_name(struct xs *l, size_t i)
{
	const char *name = lock_engine(l, i)->name;
	unlock(l);
	return name;
}

bool xs_engine_connected(struct xs *l, size_t i)
{
	bool connected = lock_engine(l, i)->fd >= 0;
	unlock(l);
	return connected;
}

void xs_engine_status(struct xs *l, size_t i, char *out, size_t cap)
{
	snprintf(out, cap, "%s", lock_engine(l, i)->status);
	unlock(l);
}

bool xs_engine_sends_arcs(struct xs *l, size_t i)
{
	bool arcs = lock_engine(l, i)->kind == PEER_ARCS;
	unlock(l);
	return arcs;
}

bool xs_engine_profiling(struct xs *l, size_t i)
{
	const struct peer *p = lock_engine(l, i);
	bool profiling = p->kind == PEER_XSBUG && xsbug_profiling(p->parser);
	unlock(l);
	return profiling;
}

size_t xs_engines_connected(struct xs *l)
{
	lock(l);
	size_t n = 0;
	for (size_t i = 0; i < l->nengines; i++)
		n += l->engines[i]->fd >= 0;
	unlock(l);
	return n;
}

enum xs_request xs_engine_request(struct xs *l, size_t i)
{
	enum xs_request r = lock_engine(l, i)->request;
	unlock(l);
	return r;
}

bool xs_engine_suspended_at(struct xs *l, size_t i, char *where, size_t cap)
{
	const struct peer *p = lock_engine(l, i);
	bool suspended = p->suspended;
	snprintf(where, cap, "%s", suspended ? p->break_where : "");
	unlock(l);
	return suspended;
}

uint64_t xs_engine_breaks(struct xs *l, size_t i, char *last, size_t cap)
{
	const struct peer *p = lock_engine(l, i);
	uint64_t n = p->breaks;
	snprintf(last, cap, "%s (%s)", p->break_where, p->break_text);
	unlock(l);
	return n;
}

uint64_t xs_engine_log_count(struct xs *l, size_t i)
{
	uint64_t n = lock_engine(l, i)->nlogs;
	unlock(l);
	return n;
}

bool xs_engine_log_line(struct xs *l, size_t i, uint64_t n, double *when,
			char *text, size_t cap)
{
	const struct peer *p = lock_engine(l, i);
	bool kept = n < p->nlogs && p->nlogs - n <= LIVE_LOG_LINES;
	if (kept) {
		const struct log_line *line = &p->logs[n % LIVE_LOG_LINES];
		*when = line->when;
		snprintf(text, cap, "%s", line->text);
	}
	unlock(l);
	return kept;
}

/* An xsbug engine starts its profile as soon as it reads the
 * <start-profiling/> its login is answered with; one built with the file
 * profiler (mxProfile) sends nothing. */
bool xs_engine_streams_nothing(struct xs *l, size_t i)
{
	const struct peer *p = lock_engine(l, i);
	bool silent = p->kind == PEER_XSBUG && !xsbug_session_count(p->parser) &&
		      (p->fd < 0 || monotonic_ms() - p->login_ms >= SILENT_AFTER_MS);
	unlock(l);
	return silent;
}

bool xs_engine_take_news(struct xs *l, size_t i)
{
	struct peer *p = lock_engine(l, i);
	uint64_t g = p->kind == PEER_ARCS ? arcs_parser_prints(p->arcs)
					  : xsbug_generation(p->parser);
	bool news = g != p->seen_generation;
	p->seen_generation = g;
	unlock(l);
	return news;
}

/* The session shown and written: the last one with samples, so that a
 * profile just started (or stopped before its first sample) does not
 * hide the one that has data. */
static size_t shown_session(const struct xsbug_parser *parser)
{
	size_t n = xsbug_session_count(parser);
	for (size_t k = n; k >= 1; k--)
		if (xsbug_session_samples(parser, k))
			return k;
	return n;
}

/* The table as of the last `print`; false before the first. */
static bool arcs_model(const struct peer *p, struct model *m)
{
	struct load_error err;
	return arcs_parser_model(p->arcs, m, &err);
}

double xs_engine_clock_skip(struct xs *l, size_t i)
{
	const struct peer *p = lock_engine(l, i);
	double skip = p->kind == PEER_XSBUG
			      ? xsbug_session_clock_skip(p->parser, shown_session(p->parser))
			      : 0;
	unlock(l);
	return skip;
}

/* Arc tables are small: made under the lock.  A session's stacks are
 * copied under it, the model is made after. */
enum live_refresh xs_engine_refresh(struct xs *l, size_t i,
				    struct xsbug_follower *f,
				    struct model *shown, struct model *fresh)
{
	const struct peer *p = lock_engine(l, i);
	bool arcs = p->kind == PEER_ARCS;
	size_t n = arcs ? 0 : shown_session(p->parser);
	/* Without samples, a model would have no stacks, and other rules. */
	bool got = arcs ? arcs_model(p, fresh)
			: xsbug_session_samples(p->parser, n) &&
				  xsbug_follow_session(f, p->parser, n);
	unlock(l);
	if (!got)
		return LIVE_NO_PROFILE;
	if (arcs)
		return LIVE_NEW_MODEL;
	return xsbug_follower_model(f, shown, fresh) ? LIVE_NEW_MODEL
						     : LIVE_NEW_VALUES;
}

/* A request already waiting for the engine's answer is not sent again:
 * an xst reads them all at its next break. */
static bool command(struct xs *l, size_t i, enum xs_request request,
		    const char *text)
{
	struct peer *p = lock_engine(l, i);
	bool queued = p->fd >= 0 &&
		      (p->request == request || send_command(p, text));
	if (queued)
		p->request = request;
	unlock(l);
	wake_server(l);
	return queued;
}

bool xs_engine_start_profiling(struct xs *l, size_t i)
{
	return command(l, i, XS_REQUEST_START, "\r\n<start-profiling/>\r\n");
}

bool xs_engine_stop_profiling(struct xs *l, size_t i)
{
	return command(l, i, XS_REQUEST_STOP, "\r\n<stop-profiling/>\r\n");
}

static bool write_capture(const struct xsbug_parser *parser, size_t n,
			  const char *base, char *err, size_t cap)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s.xsbug", base);
	FILE *f = fopen(path, "wb");
	bool ok = f && xsbug_write_session(parser, n, f);
	if (f && fclose(f))
		ok = false;
	if (!ok)
		snprintf(err, cap, "%s: %s", path, strerror(errno));
	return ok;
}

/* What needs the parser: the session as a model (with its timeline while
 * that holds every sample, so that the .cpuprofile keeps them) and the
 * .xsbug capture. */
static bool take_session(const struct peer *p, const char *base,
			 struct model *m, char *err, size_t cap)
{
	size_t n = p->kind == PEER_XSBUG ? shown_session(p->parser) : 0;
	if (n && xsbug_session_samples(p->parser, n))
		xsbug_session_model(p->parser, n, m);
	else if (p->kind == PEER_XSBUG || !arcs_model(p, m)) {
		snprintf(err, cap, "no samples yet");
		return false;
	}
	if (p->kind == PEER_XSBUG && !write_capture(p->parser, n, base, err, cap)) {
		model_free(m);
		return false;
	}
	return true;
}

static bool write_cpuprofile(const struct model *m, const char *base,
			     char *err, size_t cap)
{
	char path[4096], why[256];
	snprintf(path, sizeof(path), "%s.cpuprofile", base);
	/* The caller owns the screen: the export's notes go nowhere. */
	FILE *quiet = fopen("/dev/null", "w");
	bool ok = quiet && export_model(m, 0, EXPORT_CPUPROFILE, path, quiet, why,
					sizeof(why));
	if (!quiet)
		snprintf(why, sizeof(why), "%s", strerror(errno));
	else
		fclose(quiet);
	if (!ok)
		snprintf(err, cap, "%s: %s", path, why);
	return ok;
}

/* The engine waits while the session is read under the lock, not while
 * the .cpuprofile is written. */
bool xs_engine_write(struct xs *l, size_t i, const char *base,
		     char *err, size_t cap)
{
	struct model m;
	const struct peer *p = lock_engine(l, i);
	bool ok = take_session(p, base, &m, err, cap);
	unlock(l);
	if (!ok)
		return false;
	ok = write_cpuprofile(&m, base, err, cap);
	model_free(&m);
	return ok;
}

/* ---- --report without a terminal -------------------------------------- */

/* An arc stream has no stop: it is done when it disconnects. */
static bool profile_done(const struct peer *p)
{
	if (p->fd < 0)
		return true;
	size_t n = p->kind == PEER_XSBUG ? xsbug_session_count(p->parser) : 0;
	return n && xsbug_session_stopped(p->parser, n);
}

#define STREAMS_NOTHING "logged in but sent no profile: an xst built with " \
	"mxProfile (the stock makefile) writes XS-*.cpuprofile files and " \
	"streams nothing; build it with -DmxInstrument=1 (docs/live.md)"

/* One poll() and what it found; false with err when poll fails. */
static bool serve_once(struct xs *l, int timeout_ms, char *err, size_t cap)
{
	struct pollfd fds[XS_MAX_PEERS + 1];
	size_t n = xs_poll_fds(l, fds, ARRAY_LEN(fds));
	if (poll(fds, n, timeout_ms) < 0 && errno != EINTR) {
		snprintf(err, cap, "poll: %s", strerror(errno));
		return false;
	}
	xs_handle(l, fds, n);
	return true;
}

bool xs_wait_profile(struct xs *l, struct model *m, char *who,
		     size_t who_cap, char *err, size_t cap)
{
	bool told = false;
	while (!l->nengines || !profile_done(l->engines[0])) {
		if (!serve_once(l, 500, err, cap))
			return false;
		if (l->nengines && !told && xs_engine_streams_nothing(l, 0)) {
			told = true;
			tell(l, l->engines[0], STREAMS_NOTHING);
		}
	}
	const struct peer *p = l->engines[0];
	snprintf(who, who_cap, "%s", p->name);
	size_t n = p->kind == PEER_XSBUG ? shown_session(p->parser) : 0;
	if (n) /* the whole session, with its timeline */
		xsbug_session_model(p->parser, n, m);
	else if (p->kind != PEER_XSBUG && arcs_model(p, m))
		return true;
	else if (p->kind == PEER_XSBUG && xsbug_login_name(p->parser))
		snprintf(err, cap, "%s: " STREAMS_NOTHING, p->name);
	else
		snprintf(err, cap, "the engine left without a profile");
	return n != 0;
}

/* Peers that connected but have not logged in yet may be engines: they
 * are given this long to do so.  The engine reported is waited for too:
 * an xst stops profiling as its program ends and leaves at once, but one
 * stopped at a break runs on. */
#define LOGIN_GRACE_MS 1000.0

static bool someone_to_serve(struct xs *l, double since)
{
	lock(l);
	bool engines = false, newcomers = false;
	for (size_t i = 0; i < l->npeers; i++) {
		const struct peer *p = l->peers[i];
		engines |= p->fd >= 0 && p->engine;
		newcomers |= p->fd >= 0 && !p->engine;
	}
	unlock(l);
	return engines || (newcomers && monotonic_ms() - since < LOGIN_GRACE_MS);
}

void xs_finish(struct xs *l)
{
	lock(l);
	if (l->listen_fd >= 0) { /* those already queued are served too */
		accept_peers(l);
		close(l->listen_fd);
		l->listen_fd = -1;
	}
	unlock(l);
	double since = monotonic_ms();
	char err[128];
	while (someone_to_serve(l, since) && serve_once(l, 100, err, sizeof(err)))
		continue;
}
