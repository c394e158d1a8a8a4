// The classic listing: accept a connection, read its request, send the answer, close;
// one connection at a time and one request each, so it says Connection: close.
// Usage: http-c-blocking PORT (127.0.0.1); prints "listening 127.0.0.1:PORT".
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char answer[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\nHello, World!";
static volatile sig_atomic_t stopping;

static void stop(int signal) { (void)signal; stopping = 1; }

int main(int argc, char **argv) {
  if (argc != 2 || atoi(argv[1]) <= 0 || atoi(argv[1]) > 65535) {
    fprintf(stderr, "usage: http-c-blocking PORT\n");
    return 2;
  }
  // No SA_RESTART: SIGTERM interrupts accept(2) or read(2), and the loop ends.
  struct sigaction action = {.sa_handler = stop};
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  signal(SIGPIPE, SIG_IGN);
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  int on = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1])), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 1024) < 0) {
    fprintf(stderr, "http-c-blocking: cannot listen on 127.0.0.1:%s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  printf("listening 127.0.0.1:%s\n", argv[1]);
  fflush(stdout);
  char request[4096];
  while (!stopping) {
    int client = accept(listener, NULL, NULL);
    if (client < 0) continue;
    // A GET has no body: its header block ends the request.
    size_t got = 0;
    ssize_t n;
    while (got < sizeof request - 1 && (n = read(client, request + got, sizeof request - 1 - got)) > 0) {
      got += (size_t)n;
      request[got] = '\0';
      if (strstr(request, "\r\n\r\n")) {
        (void)!write(client, answer, sizeof answer - 1);
        break;
      }
    }
    close(client);
  }
  close(listener);
  return 0;
}
