;; http/c-blocking.c as a WebAssembly text module, through WASIX (wasmer's sockets):
;; accept a connection, read its request, send the answer, close; one connection at a
;; time and one request each, so it says Connection: close.
;; Usage: wasmer run --net build/http-wasix.wasm -- PORT (127.0.0.1); prints
;; "listening 127.0.0.1:PORT". wasmer 4.4 passes no host signal on to a module, so SIGTERM
;; ends it where it lands, and the bench takes that for its stop (experiments/http/servers.js).
(module
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (import "wasix_32v1" "sock_open" (func $sock_open (param i32 i32 i32 i32) (result i32)))
  (import "wasix_32v1" "sock_set_opt_flag" (func $sock_set_opt_flag (param i32 i32 i32) (result i32)))
  (import "wasix_32v1" "sock_bind" (func $sock_bind (param i32 i32) (result i32)))
  (import "wasix_32v1" "sock_listen" (func $sock_listen (param i32 i32) (result i32)))
  (import "wasix_32v1" "sock_accept_v2" (func $sock_accept_v2 (param i32 i32 i32 i32) (result i32)))
  (import "wasix_32v1" "sock_recv" (func $sock_recv (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasix_32v1" "sock_send" (func $sock_send (param i32 i32 i32 i32 i32) (result i32)))

  (memory (export "memory") 1)

  ;; WASIX's numbers (wasmer-wasix-types): AF_INET 1, SOCK_STREAM 1, TCP 6,
  ;; SO_REUSEADDR 2; an address is { family u8, pad u8, port u16 (little-endian), IPv4 }.
  (global $AF_INET i32 (i32.const 1))
  (global $SOCK_STREAM i32 (i32.const 1))
  (global $IPPROTO_TCP i32 (i32.const 6))
  (global $SO_REUSEADDR i32 (i32.const 2))

  ;; Memory: 0 argc and the arguments' size; 16 argv's pointers; 128 their strings;
  ;; 512 the address to bind; 560 the listener's fd; 564 a connection's; 568 bytes
  ;; received; 572 receive flags; 576 the peer's address; 600 an iovec; 1024 the answer;
  ;; 1119 a newline, then the ready line's start; 1200 usage; 1320 the refusal; 2048 the
  ;; request.
  (data (i32.const 1024) "HTTP/1.1 200 OK\0d\0aContent-Length: 13\0d\0aConnection: close\0d\0a\0d\0aHello, World!")
  (data (i32.const 1119) "\0alistening 127.0.0.1:")
  (data (i32.const 1320) "http-wasix: cannot listen on 127.0.0.1\0a")
  (data (i32.const 1200) "usage: http-wasix PORT\0a")
  (global $ANSWER i32 (i32.const 1024))
  (global $ANSWER_LENGTH i32 (i32.const 71))
  (global $REQUEST i32 (i32.const 2048))
  (global $REQUEST_ROOM i32 (i32.const 4095))

  ;; Writes `length` bytes at `address` to fd through the iovec at 600.
  (func $write (param $fd i32) (param $address i32) (param $length i32)
    (i32.store (i32.const 600) (local.get $address))
    (i32.store (i32.const 604) (local.get $length))
    (drop (call $fd_write (local.get $fd) (i32.const 600) (i32.const 1) (i32.const 608))))

  (func $usage
    (call $write (i32.const 2) (i32.const 1200) (i32.const 23))
    (call $proc_exit (i32.const 2)))

  (func $cannot_listen
    (call $write (i32.const 2) (i32.const 1320) (i32.const 39))
    (call $proc_exit (i32.const 1)))

  (func $strlen (param $at i32) (result i32)
    (local $end i32)
    (local.set $end (local.get $at))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (i32.load8_u (local.get $end))))
        (local.set $end (i32.add (local.get $end) (i32.const 1)))
        (br $next)))
    (i32.sub (local.get $end) (local.get $at)))

  ;; The port in argv[1]: 1 to 65535 in decimal digits, else usage and exit 2.
  (func $port (result i32)
    (local $at i32) (local $end i32) (local $digit i32) (local $port i32)
    (drop (call $args_sizes_get (i32.const 0) (i32.const 4)))
    (if (i32.ne (i32.load (i32.const 0)) (i32.const 2)) (then (call $usage)))
    (if (i32.gt_u (i32.load (i32.const 4)) (i32.const 256)) (then (call $usage)))
    (drop (call $args_get (i32.const 16) (i32.const 128)))
    (local.set $at (i32.load (i32.const 20)))
    (local.set $end (i32.add (local.get $at) (call $strlen (local.get $at))))
    (if (i32.or (i32.eq (local.get $at) (local.get $end))
                (i32.gt_u (i32.sub (local.get $end) (local.get $at)) (i32.const 5)))
      (then (call $usage)))
    (block $done
      (loop $next
        (br_if $done (i32.eq (local.get $at) (local.get $end)))
        (local.set $digit (i32.sub (i32.load8_u (local.get $at)) (i32.const 48)))
        (if (i32.gt_u (local.get $digit) (i32.const 9)) (then (call $usage)))
        (local.set $port (i32.add (i32.mul (local.get $port) (i32.const 10)) (local.get $digit)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (if (i32.or (i32.eqz (local.get $port)) (i32.gt_u (local.get $port) (i32.const 65535)))
      (then (call $usage)))
    (local.get $port))

  ;; Whether the `length` bytes of the request hold "\r\n\r\n", the end of a GET's headers.
  (func $complete (param $length i32) (result i32)
    (local $at i32)
    (if (i32.lt_u (local.get $length) (i32.const 4)) (then (return (i32.const 0))))
    (local.set $at (global.get $REQUEST))
    (block $done
      (loop $next
        (br_if $done (i32.gt_u (local.get $at)
          (i32.sub (i32.add (global.get $REQUEST) (local.get $length)) (i32.const 4))))
        (if (i32.eq (i32.load (local.get $at)) (i32.const 0x0a0d0a0d)) (then (return (i32.const 1))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (i32.const 0))

  ;; Reads one request from the connection; sends the answer once its headers are in.
  (func $serve (param $client i32)
    (local $got i32)
    (block $done
      (loop $more
        (br_if $done (i32.ge_u (local.get $got) (global.get $REQUEST_ROOM)))
        (i32.store (i32.const 600) (i32.add (global.get $REQUEST) (local.get $got)))
        (i32.store (i32.const 604) (i32.sub (global.get $REQUEST_ROOM) (local.get $got)))
        (br_if $done (call $sock_recv (local.get $client) (i32.const 600) (i32.const 1)
          (i32.const 0) (i32.const 568) (i32.const 572)))
        (br_if $done (i32.eqz (i32.load (i32.const 568))))
        (local.set $got (i32.add (local.get $got) (i32.load (i32.const 568))))
        (if (call $complete (local.get $got))
          (then
            (i32.store (i32.const 600) (global.get $ANSWER))
            (i32.store (i32.const 604) (global.get $ANSWER_LENGTH))
            (drop (call $sock_send (local.get $client) (i32.const 600) (i32.const 1)
              (i32.const 0) (i32.const 568)))
            (br $done)))
        (br $more))))

  (func $main (export "_start")
    (local $port i32) (local $listener i32) (local $digits i32)
    (local.set $port (call $port))
    (if (call $sock_open (global.get $AF_INET) (global.get $SOCK_STREAM) (global.get $IPPROTO_TCP)
          (i32.const 560))
      (then (call $cannot_listen)))
    (local.set $listener (i32.load (i32.const 560)))
    (drop (call $sock_set_opt_flag (local.get $listener) (global.get $SO_REUSEADDR) (i32.const 1)))
    ;; 127.0.0.1:port
    (i32.store8 (i32.const 512) (global.get $AF_INET))
    (i32.store8 (i32.const 513) (i32.const 0))
    (i32.store16 (i32.const 514) (local.get $port))
    (i32.store (i32.const 516) (i32.const 0x0100007f))
    (if (i32.or (call $sock_bind (local.get $listener) (i32.const 512))
                (call $sock_listen (local.get $listener) (i32.const 1024)))
      (then (call $cannot_listen)))
    (call $write (i32.const 1) (i32.const 1120) (i32.const 20))
    (local.set $digits (i32.load (i32.const 20)))
    (call $write (i32.const 1) (local.get $digits) (call $strlen (local.get $digits)))
    (call $write (i32.const 1) (i32.const 1119) (i32.const 1))
    (loop $accept
      (if (i32.eqz (call $sock_accept_v2 (local.get $listener) (i32.const 0) (i32.const 564)
                     (i32.const 576)))
        (then
          (call $serve (i32.load (i32.const 564)))
          (drop (call $fd_close (i32.load (i32.const 564))))))
      (br $accept))))
