// The floor of the db experiment: http/c-epoll.c's one thread, epoll and keep-alive,
// answering from PostgreSQL through libpq, whose non-blocking connections' sockets sit in
// the same epoll set as the clients': nothing waits on the database while a client could
// be served. Usage: db-c-libpq PORT, with PGHOST, PGPORT, PGUSER, PGDATABASE (read by
// libpq itself), DB_POOL, DB_PREPARED and DB_PIPELINE, as every db server.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 65536
#define REQUEST_BYTES 4096
#define MAX_OWED 64  // answers one client may be owed: bounds what a pipelining client holds
#define ROW_BYTES 48 // ,{"id":-2147483648,"randomNumber":-2147483648} and its NUL fit

enum kind { DB, QUERIES, FORTUNES, NOT_FOUND };
static const char *const head[] = {"200 OK\r\nContent-Type: application/json", "200 OK\r\nContent-Type: application/json",
                                   "200 OK\r\nContent-Type: text/html; charset=utf-8", "404 Not Found\r\nContent-Type: text/plain"};
// Text parameters and results, the format the JavaScript clients the lab compares use:
// the backend then runs the same statements and sends the same rows for every server, so
// the servers differ in their own work. Here the JSON takes the integers' text as it is.
static const char *const statement[] = {"world", "fortune"};
static const char *const sql[] = {"SELECT id, randomnumber FROM world WHERE id = $1", "SELECT id, message FROM fortune"};
static const char fortunes_head[] = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
static const char fortunes_tail[] = "</table></body></html>";
static const char added[] = "Additional fortune added at request time.";
static const char *const escape[256] = {['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;"};

// One HTTP request, owed an answer: its body is built as its queries' rows arrive.
struct request {
  struct request *next, *next_on_db; // on its client, in request order; on its database
  struct client *client;             // NULL once the client has gone
  enum kind kind;
  int queries, done;
  char *body;
  size_t length;
};
struct client {
  int fd, owed, writing;
  char in[REQUEST_BYTES];
  size_t used, out_length, out_sent, out_room;
  char *out;
  struct request *first, *last;
};
struct database {
  PGconn *pg;
  int fd, in_flight, load, writing; // load: queries assigned and not yet answered
  struct request *first, *last;     // requests with queries to run, in sending order
};
static struct client *clients[MAX_FDS];
static struct database *databases;
static int pool, prepared, pipeline, epoll;
static uint64_t seed;
static volatile sig_atomic_t stopping;

static void stop(int signal) { (void)signal; stopping = 1; }

// libpq's messages end in a newline and may span lines; the lab reads one line.
static void fail(const char *what, const char *message, int code) {
  fprintf(stderr, "db-c-libpq: %s: ", what);
  for (const char *c = message; *c; c++)
    if (*c != '\n' || c[1]) fputc(*c == '\n' || *c == '\t' ? ' ' : *c, stderr);
  fputc('\n', stderr);
  exit(code);
}

static int setting(const char *name, int low, int high) {
  char *text = getenv(name), *end = "";
  long value = text && *text ? strtol(text, &end, 10) : -1;
  if (*end || value < low || value > high) fail(name, high == 1 ? "must be 0 or 1" : "must be 1 to 1000", 2);
  return (int)value;
}

// xorshift64*: a few instructions, seeded per process; one thread, so nothing to lock.
static uint32_t next_random(void) {
  seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
  return (uint32_t)((seed * 0x2545F4914F6CDD1DULL) >> 32);
}

static void watch(int fd, uint32_t key, int writing) {
  struct epoll_event event = {.events = EPOLLIN | (writing ? EPOLLOUT : 0), .data.u32 = key};
  epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event);
}

static void free_request(struct request *r) { free(r->body), free(r); }

static void send_query(struct database *d, struct request *r) {
  char id[12];
  snprintf(id, sizeof id, "%u", 1 + next_random() % 10000);
  const char *values[] = {id};
  int s = r->kind == FORTUNES, n = !s;
  int sent = prepared ? PQsendQueryPrepared(d->pg, statement[s], n, values, NULL, NULL, 0)
                      : PQsendQueryParams(d->pg, sql[s], n, NULL, values, NULL, NULL, 0);
  // Pipelined, each query ends with its own Sync, so each is its own implicit transaction,
  // as in pg, postgres.js and db/pg.js: TechEmpower's rule since its Round 21 (every Bind and
  // Execute followed by a Sync; FrameworkBenchmarks issues 7019 and 7289), which a Sync a
  // batch broke (docs/db.md). PQsendPipelineSync (libpq 17 and later) leaves the Sync in
  // libpq's buffer, where PQpipelineSync would send it at once: a request's queries go out
  // together at the batch's flush, as db/pg.js's do.
  if (!sent || (pipeline && !PQsendPipelineSync(d->pg))) fail("cannot send a query", PQerrorMessage(d->pg), 1);
  d->in_flight++;
}

// Called after each epoll batch: a socket is taken to be writable until it refuses some of
// libpq's output, and only then watched for EPOLLOUT, so the common case costs no
// epoll_ctl. Pipelined, the batch's queries leave here together (libpq sends sooner only
// what fills its 8 KiB buffer, or what it holds when it reads).
static void flush(struct database *d) {
  int left = PQflush(d->pg);
  if (left < 0) fail("lost a database connection", PQerrorMessage(d->pg), 1);
  if (left != d->writing) watch(d->fd, MAX_FDS + (uint32_t)(d - databases), d->writing = left);
}

// A request goes whole to the least busy connection (fewest queries owed): a
// /queries?q=500 keeps its connection busy for long, and least-busy routes the next
// requests around it where round-robin would queue them behind it. Whole, because its
// rows then arrive in order on one connection and its JSON is built as they come.
static void assign(struct request *r) {
  struct database *d = &databases[0];
  for (int i = 1; i < pool; i++)
    if (databases[i].load < d->load) d = &databases[i];
  *(d->first ? &d->last->next_on_db : &d->first) = r, d->last = r;
  d->load += r->queries;
  if (pipeline)
    for (int i = 0; i < r->queries; i++) send_query(d, r);
  else if (!d->in_flight)
    send_query(d, r);
}

static int by_message(const void *a, const void *b) {
  return strcmp(((const char *const *)a)[1], ((const char *const *)b)[1]);
}

// strcmp's byte order is code-point order for UTF-8; the escape is one pass.
static void render_fortunes(struct request *r, PGresult *res) {
  int n = PQntuples(res);
  const char *(*rows)[2] = malloc((size_t)(n + 1) * sizeof *rows);
  size_t room = sizeof fortunes_head + sizeof fortunes_tail + sizeof added + 32;
  for (int i = 0; i < n; i++) {
    rows[i][0] = PQgetvalue(res, i, 0), rows[i][1] = PQgetvalue(res, i, 1);
    room += 32 + (size_t)PQgetlength(res, i, 0) + 6 * (size_t)PQgetlength(res, i, 1);
  }
  rows[n][0] = "0", rows[n][1] = added;
  qsort(rows, (size_t)n + 1, sizeof *rows, by_message);
  char *out = r->body = malloc(room);
  out = stpcpy(out, fortunes_head);
  for (int i = 0; i <= n; i++) {
    out = stpcpy(stpcpy(stpcpy(out, "<tr><td>"), rows[i][0]), "</td><td>");
    for (const unsigned char *c = (const unsigned char *)rows[i][1]; *c; c++)
      if (escape[*c]) out = stpcpy(out, escape[*c]);
      else *out++ = (char)*c;
    out = stpcpy(out, "</td></tr>");
  }
  r->length = (size_t)(stpcpy(out, fortunes_tail) - r->body);
  free(rows);
}

static void take(struct request *r, PGresult *res) {
  if (r->kind == FORTUNES) render_fortunes(r, res);
  else if (PQntuples(res) != 1) fail("world query", "no row for its id", 1);
  else r->length += (size_t)sprintf(r->body + r->length, "%s{\"id\":%s,\"randomNumber\":%s}",
                               r->done ? "," : "", PQgetvalue(res, 0, 0), PQgetvalue(res, 0, 1));
}

// Sends every finished answer at the head of the client's queue, in request order, in one
// write; one finished behind an unfinished one waits for it. Loopback usually takes the
// whole write; what it does not waits for EPOLLOUT.
static int answer(struct client *c) {
  for (struct request *r; (r = c->first) && r->done == r->queries; free_request(r)) {
    if (c->out_length + r->length + 128 > c->out_room)
      c->out = realloc(c->out, c->out_room = 2 * (c->out_length + r->length + 128));
    c->out_length += (size_t)sprintf(c->out + c->out_length, "HTTP/1.1 %s\r\nContent-Length: %zu\r\n\r\n",
                                     head[r->kind], r->length);
    memcpy(c->out + c->out_length, r->body, r->length);
    c->out_length += r->length;
    c->first = r->next, c->owed--;
  }
  while (c->out_sent < c->out_length) {
    ssize_t n = write(c->fd, c->out + c->out_sent, c->out_length - c->out_sent);
    if (n < 0) {
      if (errno != EAGAIN) return -1;
      if (!c->writing) watch(c->fd, (uint32_t)c->fd, c->writing = 1);
      return 0;
    }
    c->out_sent += (size_t)n;
  }
  if (c->writing) watch(c->fd, (uint32_t)c->fd, c->writing = 0);
  c->out_sent = c->out_length = 0;
  return 0;
}

// A request still waiting on the database stays in its database's queue, orphaned: the
// rows it is owed are still coming, and it is freed when they have.
static void drop(struct client *c) {
  close(c->fd);
  for (struct request *r = c->first, *next; r; r = next) {
    next = r->next;
    if (r->done == r->queries) free_request(r);
    else r->client = NULL;
  }
  clients[c->fd] = NULL;
  free(c->out), free(c);
}

// One query answered: the request is done when all its queries are; unpipelined, the
// connection is free and its next query goes.
static void finish(struct database *d) {
  struct request *r = d->first;
  d->in_flight--, d->load--;
  if (++r->done < r->queries) {
    if (!pipeline) send_query(d, r);
    return;
  }
  d->first = r->next_on_db;
  if (!pipeline && d->first) send_query(d, d->first);
  if (r->kind == QUERIES) r->body[r->length++] = ']';
  struct client *c = r->client; // answer() may free r
  if (!c) free_request(r);
  else if (r == c->first && answer(c) < 0) drop(c);
}

// A query's results end with a NULL from PQgetResult; in pipeline mode its Sync's
// PGRES_PIPELINE_SYNC follows, and that ends it. An error is no client's fault (the
// queries are fixed): like a lost connection, it fails the server. With no events it
// takes what libpq read while its sends were refused, which epoll will not report.
static void receive(struct database *d, uint32_t events) {
  if (events & EPOLLOUT) flush(d);
  if ((events & ~EPOLLOUT) && !PQconsumeInput(d->pg)) fail("lost a database connection", PQerrorMessage(d->pg), 1);
  while (d->in_flight && !PQisBusy(d->pg)) {
    PGresult *res = PQgetResult(d->pg);
    if (res && PQresultStatus(res) == PGRES_TUPLES_OK) take(d->first, res);
    else if (pipeline ? res && PQresultStatus(res) == PGRES_PIPELINE_SYNC : !res) finish(d);
    else if (res) fail("query failed", PQresultErrorMessage(res), 1);
    PQclear(res);
  }
}

// q missing, not a number or below 1 is 1; above 500 is 500.
static int count(const char *query) {
  const char *q = strstr(query, "q=");
  long n = q && q - query < (long)strcspn(query, " \r") && (q[-1] == '?' || q[-1] == '&') ? strtol(q + 2, NULL, 10) : 1;
  return n < 1 ? 1 : n > 500 ? 500 : (int)n;
}

static void start_request(struct client *c, const char *line) {
  enum kind kind = NOT_FOUND;
  int queries = 0;
  if (!strncmp(line, "GET /db ", 8)) kind = DB, queries = 1;
  else if (!strncmp(line, "GET /fortunes ", 14)) kind = FORTUNES, queries = 1;
  else if (!strncmp(line, "GET /queries", 12) && (line[12] == ' ' || line[12] == '?')) kind = QUERIES, queries = count(line + 12);
  struct request *r = malloc(sizeof *r);
  *r = (struct request){.client = c, .kind = kind, .queries = queries};
  if (kind != FORTUNES) r->body = malloc((size_t)queries * ROW_BYTES + 2);
  if (kind == QUERIES) r->body[r->length++] = '[';
  *(c->first ? &c->last->next : &c->first) = r, c->last = r;
  if (queries) assign(r);
}

// As http/c-epoll.c's serve: every complete request in the buffer is started, and the
// answers already finished (a 404) go out; the others go out as their rows arrive.
static int serve(struct client *c) {
  for (;;) {
    size_t room = sizeof c->in - 1 - c->used;
    ssize_t n = read(c->fd, c->in + c->used, room);
    if (n == 0) return -1;
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    c->used += (size_t)n;
    c->in[c->used] = '\0';
    char *start = c->in, *end;
    for (; (end = strstr(start, "\r\n\r\n")) != NULL; start = end + 4) {
      if (++c->owed > MAX_OWED) return -1;
      start_request(c, start);
    }
    c->used = (size_t)(c->in + c->used - start);
    memmove(c->in, start, c->used);
    if (answer(c) < 0 || c->used == sizeof c->in - 1) return -1;
    if ((size_t)n < room) return 0;
  }
}

// Connecting and preparing block: nothing else runs before the ready line.
static void open_database(struct database *d, uint32_t key) {
  d->pg = PQconnectdb(""); // PGHOST, a folder, means its Unix socket: never TCP
  if (PQstatus(d->pg) != CONNECTION_OK) fail("cannot connect to PostgreSQL", PQerrorMessage(d->pg), 1);
  for (int s = 0; prepared && s < 2; s++) {
    PGresult *res = PQprepare(d->pg, statement[s], sql[s], 0, NULL);
    if (PQresultStatus(res) != PGRES_COMMAND_OK) fail("cannot prepare a statement", PQerrorMessage(d->pg), 1);
    PQclear(res);
  }
  if (PQsetnonblocking(d->pg, 1) || (pipeline && !PQenterPipelineMode(d->pg)))
    fail("cannot set up a database connection", PQerrorMessage(d->pg), 1);
  d->fd = PQsocket(d->pg);
  struct epoll_event event = {.events = EPOLLIN, .data.u32 = key};
  epoll_ctl(epoll, EPOLL_CTL_ADD, d->fd, &event);
}

int main(int argc, char **argv) {
  if (argc != 2 || atoi(argv[1]) <= 0 || atoi(argv[1]) > 65535) fail("usage", "db-c-libpq PORT", 2);
  pool = setting("DB_POOL", 1, 1000), prepared = setting("DB_PREPARED", 0, 1), pipeline = setting("DB_PIPELINE", 0, 1);
  seed = ((uint64_t)time(NULL) << 22 ^ (uint64_t)getpid()) | 1;
  struct sigaction action = {.sa_handler = stop};
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  signal(SIGPIPE, SIG_IGN);
  epoll = epoll_create1(EPOLL_CLOEXEC);
  databases = calloc((size_t)pool, sizeof *databases);
  for (int i = 0; i < pool; i++) open_database(&databases[i], MAX_FDS + (uint32_t)i);
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int on = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1])), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 1024) < 0)
    fail("cannot listen on 127.0.0.1", strerror(errno), 1);
  struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)listener};
  epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
  printf("listening 127.0.0.1:%s\n", argv[1]);
  fflush(stdout);
  struct epoll_event events[256];
  while (!stopping) {
    int ready = epoll_wait(epoll, events, 256, -1);
    for (int i = 0; i < ready; i++) {
      uint32_t key = events[i].data.u32, what = events[i].events;
      struct client *c = key < MAX_FDS ? clients[key] : NULL;
      if (key == (uint32_t)listener) {
        int fd;
        while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
          if (fd >= MAX_FDS || !(clients[fd] = calloc(1, sizeof(struct client)))) {
            close(fd);
            continue;
          }
          clients[fd]->fd = fd;
          struct epoll_event readable = {.events = EPOLLIN, .data.u32 = (uint32_t)fd};
          epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &readable);
        }
      } else if (key >= MAX_FDS) {
        receive(&databases[key - MAX_FDS], what);
      } else if (c && (((what & EPOLLOUT) && answer(c) < 0) || ((what & ~EPOLLOUT) && serve(c) < 0))) {
        drop(c); // a client dropped earlier in this batch has no entry: its events are stale
      }
    }
    for (int i = 0; i < pool; i++) flush(&databases[i]), receive(&databases[i], 0);
  }
  for (int fd = 0; fd < MAX_FDS; fd++)
    if (clients[fd]) drop(clients[fd]);
  for (int i = 0; i < pool; i++) {
    for (struct request *r = databases[i].first, *next; r; r = next) next = r->next_on_db, free_request(r);
    PQfinish(databases[i].pg);
  }
  free(databases);
  close(listener);
  close(epoll);
  return 0;
}
