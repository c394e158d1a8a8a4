// The ceiling: one thread, epoll, keep-alive. Each readable connection's complete
// requests are answered in one write(2); a request that asks for Connection: close
// gets an answer that says so (RFC 9112 9.6; a client such as wrk keeps a connection
// whose answer does not, and counts the close as a read error), then the connection
// closes.
// Usage: http-c-epoll PORT (127.0.0.1); prints "listening 127.0.0.1:PORT".
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_FDS 65536
#define REQUEST_BYTES 4096

static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!";
static const char closing_answer[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\nHello, World!";
static volatile sig_atomic_t stopping;

// What a connection has read of requests not yet answered.
struct connection {
  char buf[REQUEST_BYTES];
  size_t used;
};
static struct connection *connections[MAX_FDS];

static void stop(int signal) { (void)signal; stopping = 1; }

// close(2) takes the fd out of the epoll set itself (no other descriptor shares its file),
// so no EPOLL_CTL_DEL: one syscall fewer per connection.
static void drop(int fd) {
  close(fd);
  free(connections[fd]);
  connections[fd] = NULL;
}

// Answers every complete request in the buffer; returns 0 to keep the connection, -1
// to close it (the peer closed, an error, a request too large, or Connection: close).
static int serve(int fd, struct connection *c) {
  for (;;) {
    size_t room = sizeof c->buf - 1 - c->used;
    ssize_t n = read(fd, c->buf + c->used, room);
    if (n == 0) return -1;
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    c->used += (size_t)n;
    c->buf[c->used] = '\0';
    char out[16 * sizeof closing_answer];
    size_t answers = 0, bytes = 0;
    int closing = 0;
    char *start = c->buf, *end;
    while (!closing && (end = strstr(start, "\r\n\r\n")) != NULL) {
      *end = '\0';
      closing = strcasestr(start, "\r\nconnection: close") != NULL;
      if (answers++ == 16) return -1;
      const char *bytes_out = closing ? closing_answer : answer;
      size_t length = closing ? sizeof closing_answer - 1 : sizeof answer - 1;
      memcpy(out + bytes, bytes_out, length);
      bytes += length;
      start = end + 4;
    }
    c->used = (size_t)(c->buf + c->used - start);
    memmove(c->buf, start, c->used);
    // Loopback's socket buffer takes a few answers whole; one it does not is an error.
    if (answers && write(fd, out, bytes) != (ssize_t)bytes) return -1;
    if (closing || c->used == sizeof c->buf - 1) return -1;
    // A read that did not fill its room emptied the socket: reading on to EAGAIN would
    // cost a syscall per wake-up for nothing; level-triggered epoll wakes again for more.
    if ((size_t)n < room) return 0;
  }
}

int main(int argc, char **argv) {
  if (argc != 2 || atoi(argv[1]) <= 0 || atoi(argv[1]) > 65535) {
    fprintf(stderr, "usage: http-c-epoll PORT\n");
    return 2;
  }
  struct sigaction action = {.sa_handler = stop};
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  signal(SIGPIPE, SIG_IGN);
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int on = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1])), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 1024) < 0) {
    fprintf(stderr, "http-c-epoll: cannot listen on 127.0.0.1:%s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  int epoll = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
  epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
  printf("listening 127.0.0.1:%s\n", argv[1]);
  fflush(stdout);
  struct epoll_event events[256];
  while (!stopping) {
    int ready = epoll_wait(epoll, events, 256, -1);
    for (int i = 0; i < ready; i++) {
      int fd = events[i].data.fd;
      if (fd == listener) {
        int client;
        while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
          if (client >= MAX_FDS || !(connections[client] = calloc(1, sizeof(struct connection)))) {
            close(client);
            continue;
          }
          struct epoll_event readable = {.events = EPOLLIN, .data.fd = client};
          epoll_ctl(epoll, EPOLL_CTL_ADD, client, &readable);
        }
      } else if (serve(fd, connections[fd]) < 0) {
        drop(fd);
      }
    }
  }
  for (int fd = 0; fd < MAX_FDS; fd++) if (connections[fd]) drop(fd);
  close(listener);
  return 0;
}
