// The `just` global: every native function the host exposes is one row of
// kBindings below, every number one row of kConstants. CreateJustObject()
// turns the tables into objects; nothing else registers bindings.
//
// Hot bindings (net.read, net.write, net.readRaw, net.close, net.accept4, sys.errno, sys.fcntl,
// sys.pid, uring.read, uring.nop) also have V8 fast API functions (Fast* below, declarations in
// fast-api.h): TurboFan-optimised code calls them directly, skipping the
// FunctionCallbackInfo / API exit frame / handle scope that the regular
// (slow) callback costs on every call. Only optimised code does: the
// interpreter and baseline code always call the slow callback, so each fast
// function must give exactly the slow one's result. A fast function may
// hand a call on to the slow callback (options.fallback) only where that
// cannot throw: V8 10.2 loses exceptions thrown after a fallback (net::Read).
// Non-number arguments never reach a fast function: TurboFan checks that a
// double parameter gets a number, else it deoptimises and the interpreter
// calls the slow callback.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "../calls/native.h"
#include "fast-api.h"
#include "host.h"

// liburing (Debian's liburing-dev) gives the host its `uring` bindings; built
// without it (host/Makefile decides), the host has none, and the rows that need
// them say so.
#ifdef HOST_HAS_URING
#include <liburing.h>
#endif

using v8::ArrayBuffer;
using v8::ArrayBufferView;
using v8::Context;
using v8::FastApiCallbackOptions;
using v8::FunctionCallbackInfo;
using v8::FunctionTemplate;
using v8::HandleScope;
using v8::Isolate;
using v8::Local;
using v8::Number;
using v8::Object;
using v8::String;
using v8::Value;

namespace host {

State state;

namespace {

Local<String> Str(Isolate* isolate, const char* s) {
  return String::NewFromUtf8(isolate, s).ToLocalChecked();
}

// Int32 argument with JS ToInt32 coercion (what just(js)'s Int32Value did).
// The IsInt32 check first keeps the common case off the slow coercion path.
bool ArgInt32(const FunctionCallbackInfo<Value>& args, int i, int32_t dflt,
              int32_t* out) {
  Local<Value> v = args[i];
  if (v->IsInt32()) {
    *out = v.As<v8::Int32>()->Value();
    return true;
  }
  if (v->IsUndefined()) {
    *out = dflt;
    return true;
  }
  return v->Int32Value(args.GetIsolate()->GetCurrentContext()).To(out);
}

// The bytes of an ArrayBuffer, SharedArrayBuffer or view (a view's own window of its
// buffer): true with base and size, or false for anything else.
bool BufferBytes(Local<Value> b, char** base, size_t* size) {
  if (b->IsArrayBuffer()) {
    Local<ArrayBuffer> ab = b.As<ArrayBuffer>();
    *base = static_cast<char*>(ab->Data());
    *size = ab->ByteLength();
  } else if (b->IsArrayBufferView()) {
    // Buffer() moves a small on-heap typed array's bytes off-heap for good, so
    // the pointer stays valid across a syscall and after.
    Local<ArrayBufferView> view = b.As<ArrayBufferView>();
    *base = static_cast<char*>(view->Buffer()->Data()) + view->ByteOffset();
    *size = view->ByteLength();
  } else if (b->IsSharedArrayBuffer()) {
    Local<v8::SharedArrayBuffer> sab = b.As<v8::SharedArrayBuffer>();
    *base = static_cast<char*>(sab->Data());
    *size = sab->ByteLength();
  } else {
    return false;
  }
  return true;
}

// A whole number of bytes in [0, limit], from a number argument.
bool ArgByteIndex(Local<Value> v, size_t limit, size_t* out) {
  if (!v->IsNumber()) return false;
  double d = v.As<Number>()->Value();
  if (!(d >= 0 && d <= static_cast<double>(limit)) || d != std::floor(d)) return false;
  *out = static_cast<size_t>(d);
  return true;
}

void ThrowTypeError(Isolate* isolate, const char* message) {
  isolate->ThrowException(v8::Exception::TypeError(Str(isolate, message)));
}

// Fast functions take every number as a double and accept only an exact
// int32 as an fd/int argument, falling back otherwise (the slow path then
// applies ToInt32, which cannot throw for a number). A double shows the
// value exactly as JS passed it: with an int32 parameter TurboFan would
// already have truncated 1.5 to 1, and read() must see 1.5 to reject it.
// NaN fails the range test.
inline bool ExactInt32(double d, int32_t* out) {
  if (!(d >= INT32_MIN && d <= INT32_MAX)) return false;
  int32_t i = static_cast<int32_t>(d);
  if (static_cast<double>(i) != d) return false;
  *out = i;
  return true;
}

// Request the slow callback for this call. Only for arguments the slow
// callback handles WITHOUT throwing: see net::Read for the V8 10.2 bug.
template <typename R>
R Fallback(FastApiCallbackOptions& options, CallCount* calls) {
  options.fallback = true;
  calls->fallback++;
  return R();
}

}  // namespace

ssize_t WriteAll(int fd, const char* buf, size_t len) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, buf + done, len - done);
    if (n >= 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      // stdout may have been made O_NONBLOCK by someone sharing the pipe;
      // wait for room instead of dropping output.
      struct pollfd p = {fd, POLLOUT, 0};
      poll(&p, 1, -1);
      continue;
    }
    return -1;
  }
  return static_cast<ssize_t>(done);
}

namespace core {

void WriteLine(const FunctionCallbackInfo<Value>& args, int fd) {
  Isolate* isolate = args.GetIsolate();
  HandleScope scope(isolate);
  String::Utf8Value str(isolate, args[0]);
  // just(js): print(str, newline = true).
  bool newline = args.Length() < 2 || args[1]->BooleanValue(isolate);
  std::string out(*str ? *str : "", *str ? str.length() : 0);
  if (newline) out.push_back('\n');
  WriteAll(fd, out.data(), out.size());
}

void Print(const FunctionCallbackInfo<Value>& args) { WriteLine(args, 1); }
void Error(const FunctionCallbackInfo<Value>& args) { WriteLine(args, 2); }

void ExitBinding(const FunctionCallbackInfo<Value>& args) {
  int32_t code = 0;
  if (!ArgInt32(args, 0, 0, &code)) return;
  Exit(code);
}

size_t CurrentRss() {
  // statm's second field is resident pages right now; getrusage only has the
  // peak (ru_maxrss), so it is the fallback when /proc is not mounted.
  int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char buf[128];
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n > 0) {
      buf[n] = '\0';
      unsigned long size = 0, resident = 0;
      if (sscanf(buf, "%lu %lu", &size, &resident) == 2)
        return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
    }
  }
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) == 0)
    return static_cast<size_t>(ru.ru_maxrss) * 1024;
  return 0;
}

void MemoryUsage(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  HandleScope scope(isolate);
  Local<Context> context = isolate->GetCurrentContext();
  v8::HeapStatistics h;
  isolate->GetHeapStatistics(&h);
  const std::pair<const char*, double> fields[] = {
      {"rss", static_cast<double>(CurrentRss())},
      {"total_heap_size", static_cast<double>(h.total_heap_size())},
      {"used_heap_size", static_cast<double>(h.used_heap_size())},
      {"external_memory", static_cast<double>(h.external_memory())},
      {"heap_size_limit", static_cast<double>(h.heap_size_limit())},
      {"total_physical_size", static_cast<double>(h.total_physical_size())},
      {"total_available_size", static_cast<double>(h.total_available_size())},
      {"total_heap_size_executable",
       static_cast<double>(h.total_heap_size_executable())},
      {"malloced_memory", static_cast<double>(h.malloced_memory())},
      {"peak_malloced_memory", static_cast<double>(h.peak_malloced_memory())},
  };
  Local<Object> out = Object::New(isolate);
  for (const auto& f : fields) {
    out->Set(context, Str(isolate, f.first), Number::New(isolate, f.second))
        .Check();
  }
  args.GetReturnValue().Set(out);
}

// env() -> { NAME: value, ... }: the process's environment, as just(js)'s
// just.env() gives it (an entry without '=' is left out). Read once by a
// server at start, so slow only.
void Env(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  Local<Context> context = isolate->GetCurrentContext();
  Local<Object> out = Object::New(isolate);
  for (char** entry = environ; *entry != nullptr; entry++) {
    const char* equals = strchr(*entry, '=');
    if (equals == nullptr) continue;
    Local<String> name;
    Local<String> value;
    if (!String::NewFromUtf8(isolate, *entry, v8::NewStringType::kNormal,
                             static_cast<int>(equals - *entry))
             .ToLocal(&name) ||
        !String::NewFromUtf8(isolate, equals + 1).ToLocal(&value) ||
        out->Set(context, name, value).IsNothing())
      return;
  }
  args.GetReturnValue().Set(out);
}

// load(path) -> what the file puts in module.exports. The file is the body
// of a function (module, exports), as a CommonJS module is, compiled with its
// path as given (relative to the working directory, as fs.open takes it) as
// the origin, so errors and stacks name its lines; it runs on every call
// (no cache: a server loads its few files once). A file that cannot be read
// is an Error naming it; a syntax error or an exception thrown while it runs
// propagates. So the lab's scripts can keep a library, such as the
// PostgreSQL client (db/pg.js), in a file of its own that can be tested
// alone. Slow only: it throws.
void Load(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  Local<Context> context = isolate->GetCurrentContext();
  String::Utf8Value path(isolate, args[0]);
  if (*path == nullptr) return;
  std::string source;
  if (int err = ReadFile(*path, &source)) {
    std::string message =
        std::string("load: cannot read '") + *path + "': " + strerror(err);
    isolate->ThrowException(v8::Exception::Error(Str(isolate, message.c_str())));
    return;
  }
  Local<String> text;
  if (!String::NewFromUtf8(isolate, source.data(), v8::NewStringType::kNormal,
                           static_cast<int>(source.size()))
           .ToLocal(&text))
    return;
  v8::ScriptOrigin origin(isolate, Str(isolate, *path));
  v8::ScriptCompiler::Source compiled(text, origin);
  Local<String> params[] = {Str(isolate, "module"), Str(isolate, "exports")};
  Local<v8::Function> body;
  if (!v8::ScriptCompiler::CompileFunction(context, &compiled, 2, params)
           .ToLocal(&body))
    return;
  Local<Object> module = Object::New(isolate);
  Local<String> exports_key = Str(isolate, "exports");
  Local<Value> argv[2] = {module, Object::New(isolate)};
  Local<Value> exports;
  if (module->Set(context, exports_key, argv[1]).IsNothing() ||
      body->Call(context, v8::Undefined(isolate), 2, argv).IsEmpty() ||
      !module->Get(context, exports_key).ToLocal(&exports))
    return;
  args.GetReturnValue().Set(exports);
}

}  // namespace core

namespace sys {

CallCount fcntl_calls, errno_calls, pid_calls;

void Fcntl(const FunctionCallbackInfo<Value>& args) {
  fcntl_calls.slow++;
  int32_t fd, cmd, arg;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 1, -1, &cmd) ||
      !ArgInt32(args, 2, 0, &arg))
    return;
  args.GetReturnValue().Set(KeepErrno(fcntl(fd, cmd, arg)));
}

// fcntl(fd, cmd, arg) and fcntl(fd, cmd) (arg 0).
int32_t FastFcntl3(Local<Value>, double fd_d, double cmd_d, double arg_d,
                   FastApiCallbackOptions& options) {
  int32_t fd, cmd, arg;
  if (!ExactInt32(fd_d, &fd) || !ExactInt32(cmd_d, &cmd) ||
      !ExactInt32(arg_d, &arg))
    return Fallback<int32_t>(options, &fcntl_calls);
  fcntl_calls.fast++;
  return KeepErrno(fcntl(fd, cmd, arg));
}

int32_t FastFcntl2(Local<Value> receiver, double fd, double cmd,
                   FastApiCallbackOptions& options) {
  return FastFcntl3(receiver, fd, cmd, 0, options);
}

void Errno(const FunctionCallbackInfo<Value>& args) {
  errno_calls.slow++;
  args.GetReturnValue().Set(state.last_errno);
}

int32_t FastErrno(Local<Value>) {
  errno_calls.fast++;
  return state.last_errno;
}

void StrError(const FunctionCallbackInfo<Value>& args) {
  int32_t n;
  if (!ArgInt32(args, 0, state.last_errno, &n)) return;
  args.GetReturnValue().Set(Str(args.GetIsolate(), strerror(n)));
}

void Pid(const FunctionCallbackInfo<Value>& args) {
  pid_calls.slow++;
  args.GetReturnValue().Set(static_cast<int32_t>(getpid()));
}

int32_t FastPid(Local<Value>) {
  pid_calls.fast++;
  return static_cast<int32_t>(getpid());
}

// exitOnSigterm(): SIGTERM ends the process with status 0, as a server stopped
// by the lab must end (lib/http.js). The host has no signal events for a
// script to handle, and a server blocked in accept(2) runs no JS to ask; so
// the handler exits itself. _exit is async-signal-safe; nothing is left to
// flush (print writes straight to fd 1).
void ExitOnSigterm(const FunctionCallbackInfo<Value>& args) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = [](int) { _exit(0); };
  args.GetReturnValue().Set(KeepErrno(sigaction(SIGTERM, &action, nullptr)));
}

// ignoreSigpipe(): a write to a socket or pipe whose reader has gone then
// fails with EPIPE instead of ending the process, as C servers do with
// signal(SIGPIPE, SIG_IGN) (http/c-epoll.c) and Node does at start: a server
// must see a lost database connection or client as an error it can report.
void IgnoreSigpipe(const FunctionCallbackInfo<Value>& args) {
  args.GetReturnValue().Set(signal(SIGPIPE, SIG_IGN) == SIG_ERR ? KeepErrno(-1) : 0);
}

void RunMicroTasks(const FunctionCallbackInfo<Value>& args) {
  RunMicrotasks(args.GetIsolate());
}

// address(buf) -> the address of buf's first byte, as a Number (user-space
// addresses are below 2**47, so exact), for net.readRaw. just-host only.
// UNSAFE by design, as in lo: the address is only valid while `buf` is
// alive (the script must keep a reference; collecting the buffer frees its
// bytes) and nothing checks what is done with it. Slow-only: it is called
// once, and it may throw.
void Address(const FunctionCallbackInfo<Value>& args) {
  char* base;
  size_t size;
  if (!BufferBytes(args[0], &base, &size)) {
    ThrowTypeError(args.GetIsolate(), "address: buf must be an ArrayBuffer or ArrayBufferView");
    return;
  }
  args.GetReturnValue().Set(
      static_cast<double>(reinterpret_cast<uintptr_t>(base)));
}

// The host's UTF-8 codec, V8's own, where just(js) had String.byteLength and
// ArrayBuffer's readString and writeString: V8 alone has no TextEncoder or
// TextDecoder, and a codec in JavaScript reads a concatenated string one
// charCodeAt at a time through its rope (db/pg.js's once took a third of the
// host's CPU at /fortunes). Slow-only: they allocate or throw.
//
// utf8Length(text) -> the bytes writeUtf8 writes for text (a lone surrogate
// counts as U+FFFD's 3).
void Utf8Length(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  if (!args[0]->IsString()) return ThrowTypeError(isolate, "utf8Length: text must be a string");
  args.GetReturnValue().Set(args[0].As<String>()->Utf8Length(isolate));
}

// writeUtf8(text, buf, at) -> where text's UTF-8 bytes, written at buf[at],
// end; a lone surrogate is written as U+FFFD. Throws a RangeError, writing
// nothing, where they do not fit.
void WriteUtf8(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  char* base;
  size_t size, at;
  if (!args[0]->IsString() || !BufferBytes(args[1], &base, &size) ||
      !ArgByteIndex(args[2], size, &at))
    return ThrowTypeError(isolate, "writeUtf8(text, buf, at): a string, a buffer, an index in it");
  Local<String> text = args[0].As<String>();
  size_t left = size - at;
  // 3 bytes a UTF-16 unit at most: counting them first (a walk of its own, a tenth of
  // the host's CPU at /fortunes) only where that bound does not fit
  if (3 * static_cast<size_t>(text->Length()) > left) {
    size_t needed = static_cast<size_t>(text->Utf8Length(isolate));
    if (needed > left) {
      std::string message = "writeUtf8: " + std::to_string(needed) + " bytes do not fit in the " +
                            std::to_string(left) + " left at " + std::to_string(at);
      isolate->ThrowException(v8::Exception::RangeError(Str(isolate, message.c_str())));
      return;
    }
    left = needed;
  }
  int written = text->WriteUtf8(isolate, base + at, static_cast<int>(std::min<size_t>(left, INT32_MAX)),
                                nullptr, String::NO_NULL_TERMINATION | String::REPLACE_INVALID_UTF8);
  args.GetReturnValue().Set(static_cast<double>(at + static_cast<size_t>(written)));
}

// readUtf8(buf, start, end) -> the text buf[start, end) encodes; what starts
// no valid sequence reads as U+FFFD, one for each maximal part of one (as the
// WHATWG Encoding Standard decodes, and Node's Buffer and TextDecoder).
void ReadUtf8(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  char* base;
  size_t size, start, end;
  if (!BufferBytes(args[0], &base, &size) || !ArgByteIndex(args[2], size, &end) ||
      !ArgByteIndex(args[1], end, &start))
    return ThrowTypeError(isolate, "readUtf8(buf, start, end): a buffer, 0 <= start <= end <= its length");
  // NewFromUtf8 takes an int length, and a negative one as "up to a NUL"
  if (end - start > static_cast<size_t>(String::kMaxLength)) {
    isolate->ThrowException(v8::Exception::RangeError(
        Str(isolate, "readUtf8: more bytes than V8's longest string")));
    return;
  }
  Local<String> text;
  if (!String::NewFromUtf8(isolate, base + start, v8::NewStringType::kNormal,
                           static_cast<int>(end - start)).ToLocal(&text))
    return;
  args.GetReturnValue().Set(text);
}

}  // namespace sys

namespace net {

// read(fd, buf)            -> reads buf.byteLength bytes at 0 (just 0.0.21)
// read(fd, buf, off)       -> reads byteLength - off bytes at off
// read(fd, buf, off, len)  -> reads len bytes at off (just 0.1.x)
// buf: ArrayBuffer, SharedArrayBuffer or any view (off is relative to the
// view's byteOffset, in bytes).
//
// Arguments it cannot use fail like the syscall, with -1 and errno EINVAL,
// never with an exception: a buf that is no buffer, an off/len that is not
// a number, not an integer, or not inside the buffer. WHY: in V8 10.2 an
// exception thrown by the slow callback after a fast call's fallback skips
// every try/catch of the optimised function (fixed upstream in 2023), so a
// bad argument at a hot call site would escape a surrounding try/catch that
// catches it at a cold one. With no exception to throw, the fast path
// answers every argument it is given exactly as the slow one does, and falls
// back only where the slow path cannot throw either (a view, an fd that is
// a number but not an int32).
CallCount read_calls, read_raw_calls, close_calls, write_calls, accept_calls;

// read(2) and write(2) alike: net.read and net.write are one code path that
// differs in the syscall it makes (and the counter it bumps), so a write
// checks its buffer, off and len exactly as a read does.
using Transfer = ssize_t (*)(int fd, char* buf, size_t len);
inline ssize_t ReadOp(int fd, char* buf, size_t len) { return read(fd, buf, len); }
inline ssize_t WriteOp(int fd, char* buf, size_t len) { return write(fd, buf, len); }

// The one place off/len are checked and the transfer is made. `to_end`: no len
// was given, transfer up to the end. Bounds are checked in doubles so no value
// can wrap around and reach outside the buffer; once off and len lie in
// [0, size] (< 2**53) the int64 casts are exact, so they test integrality.
// NaN fails every comparison.
template <Transfer kOp>
inline int32_t TransferAt(int32_t fd, char* base, size_t size, double off,
                          double len, bool to_end) {
  double sz = static_cast<double>(size);
  if (to_end) len = sz - off;
  if (!(off >= 0 && off <= sz && len >= 0 && len <= sz - off) ||
      static_cast<double>(static_cast<int64_t>(off)) != off ||
      static_cast<double>(static_cast<int64_t>(len)) != len) {
    state.last_errno = EINVAL;
    return -1;
  }
  ssize_t r = KeepErrno(
      kOp(fd, base + static_cast<size_t>(off), static_cast<size_t>(len)));
  // Linux caps a single read or write at 0x7ffff000 bytes, so r always fits an int32
  // (a Smi for V8, no heap number allocated per call).
  return static_cast<int32_t>(r);
}

// off/len argument i: absent or undefined -> *given = false.
bool ArgOffLen(const FunctionCallbackInfo<Value>& args, int i, double* out,
               bool* given) {
  *given = args.Length() > i && !args[i]->IsUndefined();
  if (!*given) return true;
  if (!args[i]->IsNumber()) return false;
  *out = args[i].As<Number>()->Value();
  return true;
}

template <Transfer kOp, CallCount* kCalls>
void TransferCallback(const FunctionCallbackInfo<Value>& args) {
  kCalls->slow++;
  int32_t fd;
  if (!ArgInt32(args, 0, -1, &fd)) return;  // ToInt32; throws only for a
                                            // non-number, never reaches fast
  char* base = nullptr;
  size_t size = 0;
  bool ok = BufferBytes(args[1], &base, &size);
  double off = 0, len = 0;
  bool has_off, has_len;
  if (!ok || !ArgOffLen(args, 2, &off, &has_off) ||
      !ArgOffLen(args, 3, &len, &has_len)) {
    state.last_errno = EINVAL;
    args.GetReturnValue().Set(-1);
    return;
  }
  args.GetReturnValue().Set(TransferAt<kOp>(fd, base, size, off, len, !has_len));
}

void Read(const FunctionCallbackInfo<Value>& args) {
  TransferCallback<ReadOp, &read_calls>(args);
}

// write(fd, buf[, off[, len]]) -> bytes written, or -1 with errno: net.read's
// arguments, checked as it checks them (write(2) on a socket is send(2)
// without flags).
void Write(const FunctionCallbackInfo<Value>& args) {
  TransferCallback<WriteOp, &write_calls>(args);
}

// Where V8 keeps a plain (unshared) ArrayBuffer's bytes and length inside
// the JSArrayBuffer object, so the fast read can take them with a few loads
// instead of three calls into libnode (IsArrayBuffer, Data, ByteLength):
// 23 instructions a read, about 4 ns of a ~165 ns zero-byte read. V8 keeps the object
// layout private, so LearnArrayBufferLayout() finds the fields in buffers it
// makes and checks them against the API; if anything does not match (another
// V8 build), `known` stays false and the API calls are used. What it relies
// on holds in every V8 with the sandbox off: the length and the backing
// store pointer are raw words of the object, and SharedArrayBuffers share
// the instance type, told apart by one flag bit (their length can live in
// the backing store, so they always take the API path).
struct ArrayBufferLayout {
  bool known = false;
  int instance_type = -1;
  int length_offset = 0;
  int data_offset = 0;
  int flags_offset = 0;
  uintptr_t shared_bit = 0;
};
ArrayBufferLayout ab_layout;

template <typename T>
T FieldAt(v8::internal::Address object, int offset) {
  return v8::internal::Internals::ReadRawField<T>(object, offset);
}

v8::internal::Address ObjectAddress(Local<Value> value) {
  return *reinterpret_cast<v8::internal::Address*>(*value);
}

// Plain ArrayBuffer (any subclass, detached: null/0) -> true with its bytes;
// anything else -> false, for the API to decide.
inline bool PlainArrayBufferBytes(Local<Value> value, char** base,
                                  size_t* size) {
  using v8::internal::Internals;
  v8::internal::Address object = ObjectAddress(value);
  if (!ab_layout.known || !Internals::HasHeapObjectTag(object) ||
      Internals::GetInstanceType(object) != ab_layout.instance_type ||
      (FieldAt<uintptr_t>(object, ab_layout.flags_offset) & ab_layout.shared_bit))
    return false;
  *base = FieldAt<char*>(object, ab_layout.data_offset);
  *size = FieldAt<size_t>(object, ab_layout.length_offset);
  return true;
}

// The first offset past the JSObject header at which every buffer holds the
// word `expected(buffer)`, or -1. Sizes chosen so no two words coincide.
template <typename Expected>
int FindWord(const std::vector<Local<Value>>& buffers, Expected expected) {
  using v8::internal::Internals;
  constexpr int kWord = sizeof(v8::internal::Address);
  for (int offset = Internals::kJSObjectHeaderSize; offset < 16 * kWord;
       offset += kWord) {
    bool all = true;
    for (Local<Value> b : buffers)
      all = all && FieldAt<uintptr_t>(ObjectAddress(b), offset) == expected(b);
    if (all) return offset;
  }
  return -1;
}

// Fills ab_layout if the fields are found and every buffer made here reads
// back through PlainArrayBufferBytes exactly as the API reports it.
void LearnArrayBufferLayout(Isolate* isolate) {
  using v8::internal::Internals;
  HandleScope scope(isolate);
  const std::vector<Local<Value>> plain = {ArrayBuffer::New(isolate, 4099),
                                           ArrayBuffer::New(isolate, 12347)};
  const std::vector<Local<Value>> shared = {
      v8::SharedArrayBuffer::New(isolate, 4099),
      v8::SharedArrayBuffer::New(isolate, 12347)};
  ArrayBufferLayout l;
  l.instance_type = Internals::GetInstanceType(ObjectAddress(plain[0]));
  l.length_offset = FindWord(plain, [](Local<Value> b) {
    return static_cast<uintptr_t>(b.As<ArrayBuffer>()->ByteLength());
  });
  l.data_offset = FindWord(plain, [](Local<Value> b) {
    return reinterpret_cast<uintptr_t>(b.As<ArrayBuffer>()->Data());
  });
  if (l.length_offset < 0 || l.data_offset < 0) return;
  for (const auto* group : {&plain, &shared})
    for (Local<Value> b : *group)
      if (Internals::GetInstanceType(ObjectAddress(b)) != l.instance_type)
        return;
  // The flags: the first whole word past the data pointer that is the same
  // in both buffers of each kind and where the shared ones have exactly one
  // bit the plain ones lack. Whole words, because half of a pointer (the
  // extension's) can agree between buffers and differ by one bit by chance;
  // a whole pointer differs between two buffers, so it never qualifies.
  constexpr int kWord = sizeof(v8::internal::Address);
  for (int offset = l.data_offset + kWord; offset < 16 * kWord && !l.known;
       offset += kWord) {
    auto flags = [offset](Local<Value> b) {
      return FieldAt<uintptr_t>(ObjectAddress(b), offset);
    };
    uintptr_t extra = flags(shared[0]) & ~flags(plain[0]);
    if (flags(plain[0]) == flags(plain[1]) &&
        flags(shared[0]) == flags(shared[1]) && extra != 0 &&
        (extra & (extra - 1)) == 0) {
      l.flags_offset = offset;
      l.shared_bit = extra;
      l.known = true;
    }
  }
  if (!l.known) return;
  // Checked on fresh buffers too, not only on those the offsets came from.
  ab_layout = l;
  const std::vector<Local<Value>> fresh_plain = {
      plain[0], plain[1], ArrayBuffer::New(isolate, 777),
      ArrayBuffer::New(isolate, 0)};
  const std::vector<Local<Value>> fresh_shared = {
      shared[0], shared[1], v8::SharedArrayBuffer::New(isolate, 555)};
  bool agrees = true;
  char* base;
  size_t size;
  for (Local<Value> b : fresh_plain)
    agrees = agrees && PlainArrayBufferBytes(b, &base, &size) &&
             base == b.As<ArrayBuffer>()->Data() &&
             size == b.As<ArrayBuffer>()->ByteLength();
  for (Local<Value> b : fresh_shared)
    agrees = agrees && !PlainArrayBufferBytes(b, &base, &size);
  if (!agrees) ab_layout = ArrayBufferLayout();
}

// The fast read. A plain ArrayBuffer, the common case, is read from its
// fields (above); otherwise IsArrayBuffer/IsSharedArrayBuffer/Data/
// ByteLength, which neither allocate nor create handles, which is all a fast
// call may do. A view falls back: reaching its bytes (Buffer()) may allocate.
// Anything else that is not a buffer gets the slow path's answer,
// -1/EINVAL, here.
template <Transfer kOp, CallCount* kCalls>
inline int32_t FastTransferImpl(double fd_d, Local<Value> buf, double off,
                                double len, bool to_end,
                                FastApiCallbackOptions& options) {
  int32_t fd;
  if (!ExactInt32(fd_d, &fd)) return Fallback<int32_t>(options, kCalls);
  char* base = nullptr;
  size_t size = 0;
  if (PlainArrayBufferBytes(buf, &base, &size)) {
    // the common case: nothing more to ask V8
  } else if (buf->IsArrayBuffer()) {
    Local<ArrayBuffer> ab = buf.As<ArrayBuffer>();
    base = static_cast<char*>(ab->Data());
    size = ab->ByteLength();
  } else if (buf->IsArrayBufferView()) {
    return Fallback<int32_t>(options, kCalls);
  } else if (buf->IsSharedArrayBuffer()) {
    Local<v8::SharedArrayBuffer> sab = buf.As<v8::SharedArrayBuffer>();
    base = static_cast<char*>(sab->Data());
    size = sab->ByteLength();
  } else {
    off = -1;  // TransferAt answers -1/EINVAL, as the slow callback does
  }
  kCalls->fast++;
  return TransferAt<kOp>(fd, base, size, off, len, to_end);
}

template <Transfer kOp, CallCount* kCalls>
int32_t FastTransfer4(Local<Value>, double fd, Local<Value> buf, double off,
                      double len, FastApiCallbackOptions& options) {
  return FastTransferImpl<kOp, kCalls>(fd, buf, off, len, false, options);
}

template <Transfer kOp, CallCount* kCalls>
int32_t FastTransfer3(Local<Value>, double fd, Local<Value> buf, double off,
                      FastApiCallbackOptions& options) {
  return FastTransferImpl<kOp, kCalls>(fd, buf, off, 0, true, options);
}

template <Transfer kOp, CallCount* kCalls>
int32_t FastTransfer2(Local<Value>, double fd, Local<Value> buf,
                      FastApiCallbackOptions& options) {
  return FastTransferImpl<kOp, kCalls>(fd, buf, 0, 0, true, options);
}

constexpr auto FastRead2 = FastTransfer2<ReadOp, &read_calls>;
constexpr auto FastRead3 = FastTransfer3<ReadOp, &read_calls>;
constexpr auto FastRead4 = FastTransfer4<ReadOp, &read_calls>;
constexpr auto FastWrite2 = FastTransfer2<WriteOp, &write_calls>;
constexpr auto FastWrite3 = FastTransfer3<WriteOp, &write_calls>;
constexpr auto FastWrite4 = FastTransfer4<WriteOp, &write_calls>;

// An address argument, through ToNumber (false if that threw). *valid is
// false for anything but an integer in [-2**63, 2**63): what TurboFan lets
// through to an int64 fast parameter, and the doubles whose conversion to
// int64 is defined.
bool ArgAddress(const FunctionCallbackInfo<Value>& args, int i,
                int64_t* address, bool* valid) {
  double number;
  if (!args[i]->NumberValue(args.GetIsolate()->GetCurrentContext())
           .To(&number))
    return false;
  *valid = number >= -0x1p63 && number < 0x1p63 && std::trunc(number) == number;
  *address = *valid ? static_cast<int64_t>(number) : 0;
  return true;
}

// readRaw(fd, address, len): read(2) of up to len bytes to `address` (from
// sys.address). just-host only; the lab's fastest call shape: no buffer to
// look up and no bounds to check per call, so the fast function is the
// syscall and little else (what lo does). UNSAFE: nothing checks that
// [address, address + len) is a live buffer. len < 0 is refused
// (-1/EINVAL): as a size_t it would let a pipe read write far past any
// buffer. fd and len go through ToInt32 on both paths (TurboFan truncates
// int32 parameters the same way). The address is an int64 parameter:
// TurboFan converts the Number in the caller's code and checks that it is
// an integer in int64's range (anything else, NaN, 1.5, 2**63, deoptimises
// the caller and the interpreter calls the slow callback), so the fast
// function gets a ready integer. The slow callback takes ToNumber, passes
// the same integers on, and refuses the rest itself with -1/EFAULT (as
// read(2) refuses an address it cannot write): exactly the values the fast
// path never sees.
inline int32_t ReadRawAt(int32_t fd, int64_t address, int32_t len) {
  if (len < 0) {
    state.last_errno = EINVAL;
    return -1;
  }
  ssize_t r = KeepErrno(read(fd, reinterpret_cast<char*>(address),
                             static_cast<size_t>(len)));
  return static_cast<int32_t>(r);
}

void ReadRaw(const FunctionCallbackInfo<Value>& args) {
  read_raw_calls.slow++;
  int32_t fd, len;
  int64_t address;
  bool valid;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgAddress(args, 1, &address, &valid) ||
      !ArgInt32(args, 2, 0, &len))
    return;
  if (!valid) {
    state.last_errno = EFAULT;
    args.GetReturnValue().Set(-1);
    return;
  }
  args.GetReturnValue().Set(ReadRawAt(fd, address, len));
}

int32_t FastReadRaw(Local<Value>, int32_t fd, int64_t address, int32_t len) {
  read_raw_calls.fast++;
  return ReadRawAt(fd, address, len);
}

void Close(const FunctionCallbackInfo<Value>& args) {
  close_calls.slow++;
  int32_t fd;
  if (!ArgInt32(args, 0, -1, &fd)) return;
  args.GetReturnValue().Set(KeepErrno(close(fd)));
}

int32_t FastClose(Local<Value>, double fd_d, FastApiCallbackOptions& options) {
  int32_t fd;
  if (!ExactInt32(fd_d, &fd)) return Fallback<int32_t>(options, &close_calls);
  close_calls.fast++;
  return KeepErrno(close(fd));
}

// What a hello-world server needs of sockets (http/just-*.js). Setting one up
// is once per server, so socket, setsockopt, bind and listen are slow only;
// accept4 is once per connection (every request with Connection: close), so
// it has a fast path, as read, write and close do.

// socket(domain, type, protocol) -> fd, or -1 with errno.
void Socket(const FunctionCallbackInfo<Value>& args) {
  int32_t domain, type, protocol;
  if (!ArgInt32(args, 0, -1, &domain) || !ArgInt32(args, 1, -1, &type) ||
      !ArgInt32(args, 2, 0, &protocol))
    return;
  args.GetReturnValue().Set(KeepErrno(socket(domain, type, protocol)));
}

// setsockopt(fd, level, name, value): an int option, the only kind the
// servers set (SO_REUSEADDR, TCP_NODELAY).
void Setsockopt(const FunctionCallbackInfo<Value>& args) {
  int32_t fd, level, name, value;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 1, -1, &level) ||
      !ArgInt32(args, 2, -1, &name) || !ArgInt32(args, 3, 0, &value))
    return;
  args.GetReturnValue().Set(
      KeepErrno(setsockopt(fd, level, name, &value, sizeof value)));
}

// The address bind and connect give the kernel, read as the socket's own
// family reads it (SO_DOMAIN): for AF_INET an IPv4 address in dotted form and
// a port in 0..65535, for AF_UNIX a path (the port is not used). Returns 0, or
// the errno the call fails with before any syscall: EINVAL for an address
// that is no string or not dotted, or a port out of range; ENAMETOOLONG for a
// path longer than sun_path holds; EAFNOSUPPORT for any other family; and
// getsockopt's own errno (EBADF, ENOTSOCK) for an fd that is no socket.
int SocketAddress(const FunctionCallbackInfo<Value>& args, int32_t fd,
                  int32_t port, struct sockaddr_storage* address,
                  socklen_t* size) {
  int domain;
  socklen_t domain_size = sizeof domain;
  if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &domain_size) != 0)
    return errno;
  String::Utf8Value text(args.GetIsolate(), args[1]);
  if (*text == nullptr || !args[1]->IsString()) return EINVAL;
  memset(address, 0, sizeof *address);
  if (domain == AF_INET) {
    auto* in = reinterpret_cast<struct sockaddr_in*>(address);
    in->sin_family = AF_INET;
    in->sin_port = htons(static_cast<uint16_t>(port));
    if (port < 0 || port > 65535 || inet_pton(AF_INET, *text, &in->sin_addr) != 1)
      return EINVAL;
    *size = sizeof *in;
    return 0;
  }
  if (domain == AF_UNIX) {
    auto* un = reinterpret_cast<struct sockaddr_un*>(address);
    un->sun_family = AF_UNIX;
    // the terminating NUL must fit too, as libpq and the kernel's own
    // sockaddr_un users expect
    size_t length = static_cast<size_t>(text.length());
    if (length >= sizeof un->sun_path) return ENAMETOOLONG;
    memcpy(un->sun_path, *text, length);
    *size = static_cast<socklen_t>(offsetof(struct sockaddr_un, sun_path) + length + 1);
    return 0;
  }
  return EAFNOSUPPORT;
}

// bind(fd, address, port): see SocketAddress; an address it refuses fails
// like the syscall, -1 with its errno.
void Bind(const FunctionCallbackInfo<Value>& args) {
  int32_t fd, port;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 2, 0, &port)) return;
  struct sockaddr_storage address;
  socklen_t size;
  if (int refused = SocketAddress(args, fd, port, &address, &size)) {
    state.last_errno = refused;
    args.GetReturnValue().Set(-1);
    return;
  }
  args.GetReturnValue().Set(
      KeepErrno(bind(fd, reinterpret_cast<struct sockaddr*>(&address), size)));
}

// connect(fd, address, port): the address as bind reads it. On a
// non-blocking socket a TCP connect that has not completed yet is -1 with
// EINPROGRESS: the socket turns writable (EPOLLOUT) when it has, and
// getsockopt(fd, SOL_SOCKET, SO_ERROR) then says how it went. Slow only:
// once per connection, and reading the address allocates.
void Connect(const FunctionCallbackInfo<Value>& args) {
  int32_t fd, port;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 2, 0, &port)) return;
  struct sockaddr_storage address;
  socklen_t size;
  if (int refused = SocketAddress(args, fd, port, &address, &size)) {
    state.last_errno = refused;
    args.GetReturnValue().Set(-1);
    return;
  }
  args.GetReturnValue().Set(KeepErrno(
      connect(fd, reinterpret_cast<struct sockaddr*>(&address), size)));
}

// getsockopt(fd, level, name) -> an int option's value (SO_ERROR: a pending
// error's errno, 0 for none, and reading it clears it), or -1 with errno. An
// option whose value can itself be -1 cannot be told from a failure this
// way; none the lab reads can.
void Getsockopt(const FunctionCallbackInfo<Value>& args) {
  int32_t fd, level, name;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 1, -1, &level) ||
      !ArgInt32(args, 2, -1, &name))
    return;
  int value = 0;
  socklen_t size = sizeof value;
  int r = KeepErrno(getsockopt(fd, level, name, &value, &size));
  args.GetReturnValue().Set(r == 0 ? value : -1);
}

void Listen(const FunctionCallbackInfo<Value>& args) {
  int32_t fd, backlog;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 1, SOMAXCONN, &backlog))
    return;
  args.GetReturnValue().Set(KeepErrno(listen(fd, backlog)));
}

// accept4(fd, flags) -> the connection's fd, or -1 with errno; the peer's
// address is not asked for (no server here uses it).
void Accept4(const FunctionCallbackInfo<Value>& args) {
  accept_calls.slow++;
  int32_t fd, flags;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 1, 0, &flags)) return;
  args.GetReturnValue().Set(KeepErrno(accept4(fd, nullptr, nullptr, flags)));
}

int32_t FastAccept4(Local<Value>, double fd_d, double flags_d,
                    FastApiCallbackOptions& options) {
  int32_t fd, flags;
  if (!ExactInt32(fd_d, &fd) || !ExactInt32(flags_d, &flags))
    return Fallback<int32_t>(options, &accept_calls);
  accept_calls.fast++;
  return KeepErrno(accept4(fd, nullptr, nullptr, flags));
}

}  // namespace net

namespace fs {

// open(path, flags = O_RDONLY) -> fd, or -1 with errno (just(js)'s fs.open). Slow
// only: it is called once, and reading the path allocates.
void Open(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  String::Utf8Value path(isolate, args[0]);
  int32_t flags;
  if (*path == nullptr || !ArgInt32(args, 1, O_RDONLY, &flags)) return;
  args.GetReturnValue().Set(KeepErrno(open(*path, flags | O_CLOEXEC)));
}

}  // namespace fs

#ifdef HOST_HAS_URING
// Reads through io_uring (wc/wc-uring.js, the ladder's ring rungs). A ring is
// set up once; then each call prepares one operation, hands it over and waits
// for its completion in one io_uring_enter, and reaps it. That is one crossing
// from JS an operation, as net.readRaw is one crossing a read(2), so what a
// read through the ring and a readRaw differ by is the ring against the
// syscall. Rings are numbered: setup returns an index into `rings`.
namespace uring {

constexpr int kMaxRings = 8;
struct io_uring rings[kMaxRings];
int ring_count = 0;
CallCount read_calls, nop_calls;

// liburing's result (-errno on failure) as the host's: -1 with errno kept.
int32_t ErrnoKept(int result) {
  if (result >= 0) return result;
  state.last_errno = -result;
  return -1;
}

// setup(entries) -> the ring's number, or -1 with errno (EMFILE past
// kMaxRings rings).
void Setup(const FunctionCallbackInfo<Value>& args) {
  int32_t entries;
  if (!ArgInt32(args, 0, 1, &entries)) return;
  if (ring_count == kMaxRings) {
    state.last_errno = EMFILE;
    args.GetReturnValue().Set(-1);
    return;
  }
  int result = io_uring_queue_init(static_cast<unsigned>(entries),
                                   &rings[ring_count], 0);
  args.GetReturnValue().Set(result < 0 ? ErrnoKept(result) : ring_count++);
}

// One operation, made by `prepare` on a free entry of ring `number`,
// submitted, waited for and reaped: its result, or -1 with errno (EBADF for
// a ring never set up).
template <typename Prepare>
int32_t Complete(int32_t number, Prepare prepare) {
  if (number < 0 || number >= ring_count) {
    state.last_errno = EBADF;
    return -1;
  }
  struct io_uring* ring = &rings[number];
  struct io_uring_sqe* sqe = io_uring_get_sqe(ring);
  if (sqe == nullptr) {
    state.last_errno = EBUSY;
    return -1;
  }
  prepare(sqe);
  // a wait cut short by a signal leaves the operation in flight: wait again, so
  // that its completion is never taken for the next call's
  int result = io_uring_submit_and_wait(ring, 1);
  if (result < 0 && result != -EINTR) return ErrnoKept(result);
  struct io_uring_cqe* cqe;
  do result = io_uring_wait_cqe(ring, &cqe);
  while (result == -EINTR);
  if (result < 0) return ErrnoKept(result);
  result = cqe->res;
  io_uring_cqe_seen(ring, cqe);
  return ErrnoKept(result);
}

// read(ring, fd, address, len): net.readRaw's read, as one IORING_OP_READ
// from the file's position (a pipe has none). UNSAFE as readRaw is, and its
// arguments are taken as readRaw takes them.
inline int32_t ReadAt(int32_t ring, int32_t fd, int64_t address,
                      int32_t len) {
  if (len < 0) {
    state.last_errno = EINVAL;
    return -1;
  }
  return Complete(ring, [&](struct io_uring_sqe* sqe) {
    io_uring_prep_read(sqe, fd, reinterpret_cast<void*>(address),
                       static_cast<unsigned>(len), -1);
  });
}

void Read(const FunctionCallbackInfo<Value>& args) {
  read_calls.slow++;
  int32_t ring, fd, len;
  int64_t address;
  bool valid;
  if (!ArgInt32(args, 0, -1, &ring) || !ArgInt32(args, 1, -1, &fd) ||
      !net::ArgAddress(args, 2, &address, &valid) ||
      !ArgInt32(args, 3, 0, &len))
    return;
  if (!valid) {
    state.last_errno = EFAULT;
    args.GetReturnValue().Set(-1);
    return;
  }
  args.GetReturnValue().Set(ReadAt(ring, fd, address, len));
}

int32_t FastRead(Local<Value>, int32_t ring, int32_t fd, int64_t address,
                 int32_t len) {
  read_calls.fast++;
  return ReadAt(ring, fd, address, len);
}

// nop(ring): an IORING_OP_NOP, the ring's round trip with no work: 0, or -1
// with errno.
inline int32_t NopAt(int32_t ring) {
  return Complete(ring, [](struct io_uring_sqe* sqe) { io_uring_prep_nop(sqe); });
}

void Nop(const FunctionCallbackInfo<Value>& args) {
  nop_calls.slow++;
  int32_t ring;
  if (!ArgInt32(args, 0, -1, &ring)) return;
  args.GetReturnValue().Set(NopAt(ring));
}

int32_t FastNop(Local<Value>, int32_t ring) {
  nop_calls.fast++;
  return NopAt(ring);
}

}  // namespace uring
#endif

// just.host.noop, getppid and cpuNs: the call ladder's rungs (calls/just.js), the same
// C functions the other runtimes reach through their FFI or Node-API (calls/native.c).
namespace ladder {

CallCount noop_calls, getppid_calls;

void Noop(const FunctionCallbackInfo<Value>& args) {
  noop_calls.slow++;
  int32_t x;
  if (!ArgInt32(args, 0, 0, &x)) return;
  args.GetReturnValue().Set(ladder_noop(x));
}

// int32 parameter: TurboFan hands over an int32 it has checked, or deoptimises.
int32_t FastNoop(Local<Value>, int32_t x) {
  noop_calls.fast++;
  return ladder_noop(x);
}

void Getppid(const FunctionCallbackInfo<Value>& args) {
  getppid_calls.slow++;
  args.GetReturnValue().Set(ladder_getppid());
}

int32_t FastGetppid(Local<Value>) {
  getppid_calls.fast++;
  return ladder_getppid();
}

void CpuNs(const FunctionCallbackInfo<Value>& args) {
  args.GetReturnValue().Set(ladder_cpu_ns());
}

}  // namespace ladder

namespace {

void HostCalls(const FunctionCallbackInfo<Value>& args);
void HostNowInto(const FunctionCallbackInfo<Value>& args);
void HostReadLoop(const FunctionCallbackInfo<Value>& args);

// clang-format off
const Binding kBindings[] = {
  // module        name             slow callback        kind           fast (one per arity)                                 calls
  {"",             "print",         core::Print,         Kind::kMethod, {},                                                  nullptr},
  {"",             "error",         core::Error,         Kind::kMethod, {},                                                  nullptr},
  {"",             "exit",          core::ExitBinding,   Kind::kMethod, {},                                                  nullptr},
  {"",             "memoryUsage",   core::MemoryUsage,   Kind::kMethod, {},                                                  nullptr},
  {"",             "env",           core::Env,           Kind::kMethod, {},                                                  nullptr},
  {"",             "load",          core::Load,          Kind::kMethod, {},                                                  nullptr},

  {"sys",          "fcntl",         sys::Fcntl,          Kind::kMethod, kFast<sys::FastFcntl2, sys::FastFcntl3>,             &sys::fcntl_calls},
  {"sys",          "errno",         sys::Errno,          Kind::kMethod, kFast<sys::FastErrno>,                               &sys::errno_calls},
  {"sys",          "strerror",      sys::StrError,       Kind::kMethod, {},                                                  nullptr},
  {"sys",          "pid",           sys::Pid,            Kind::kMethod, kFast<sys::FastPid>,                                 &sys::pid_calls},
  {"sys",          "runMicroTasks", sys::RunMicroTasks,  Kind::kMethod, {},                                                  nullptr},
  {"sys",          "exitOnSigterm", sys::ExitOnSigterm,  Kind::kMethod, {},                                                  nullptr},
  {"sys",          "ignoreSigpipe", sys::IgnoreSigpipe,  Kind::kMethod, {},                                                  nullptr},
  {"sys",          "address",       sys::Address,        Kind::kMethod, {},                                                  nullptr},
  {"sys",          "utf8Length",    sys::Utf8Length,     Kind::kMethod, {},                                                  nullptr},
  {"sys",          "writeUtf8",     sys::WriteUtf8,      Kind::kMethod, {},                                                  nullptr},
  {"sys",          "readUtf8",      sys::ReadUtf8,       Kind::kMethod, {},                                                  nullptr},

  {"net",          "read",          net::Read,           Kind::kMethod, kFast<net::FastRead2, net::FastRead3, net::FastRead4>, &net::read_calls},
  {"net",          "readRaw",       net::ReadRaw,        Kind::kMethod, kFast<net::FastReadRaw>,                             &net::read_raw_calls},
  {"net",          "close",         net::Close,          Kind::kMethod, kFast<net::FastClose>,                               &net::close_calls},
  {"net",          "write",         net::Write,          Kind::kMethod, kFast<net::FastWrite2, net::FastWrite3, net::FastWrite4>, &net::write_calls},
  {"net",          "socket",        net::Socket,         Kind::kMethod, {},                                                  nullptr},
  {"net",          "setsockopt",    net::Setsockopt,     Kind::kMethod, {},                                                  nullptr},
  {"net",          "bind",          net::Bind,           Kind::kMethod, {},                                                  nullptr},
  {"net",          "connect",       net::Connect,        Kind::kMethod, {},                                                  nullptr},
  {"net",          "getsockopt",    net::Getsockopt,     Kind::kMethod, {},                                                  nullptr},
  {"net",          "listen",        net::Listen,         Kind::kMethod, {},                                                  nullptr},
  {"net",          "accept4",       net::Accept4,        Kind::kMethod, kFast<net::FastAccept4>,                             &net::accept_calls},

  {"fs",           "open",          fs::Open,            Kind::kMethod, {},                                                  nullptr},

#ifdef HOST_HAS_URING
  {"uring",        "setup",         uring::Setup,        Kind::kMethod, {},                                                  nullptr},
  {"uring",        "read",          uring::Read,         Kind::kMethod, kFast<uring::FastRead>,                              &uring::read_calls},
  {"uring",        "nop",           uring::Nop,          Kind::kMethod, kFast<uring::FastNop>,                               &uring::nop_calls},
#endif

  {"factory",      "run",           FactoryRun,          Kind::kMethod, {},                                                  nullptr},
  {"factory",      "stop",          FactoryStop,         Kind::kMethod, {},                                                  nullptr},
  {"factory.loop", "add",           LoopAdd,             Kind::kMethod, {},                                                  nullptr},
  {"factory.loop", "remove",        LoopRemove,          Kind::kMethod, {},                                                  nullptr},
  {"factory.loop", "update",        LoopUpdate,          Kind::kMethod, {},                                                  nullptr},
  {"factory.loop", "poll",          LoopPollBinding,     Kind::kMethod, {},                                                  nullptr},
  {"factory.loop", "count",         LoopCount,           Kind::kGetter, {},                                                  nullptr},
  {"factory.loop", "fd",            LoopFd,              Kind::kGetter, {},                                                  nullptr},

  // just-host only (real just(js) has no `just.host`): the CallCount of every
  // row above that has a fast path, to check that fast calls engage.
  {"host",         "calls",         HostCalls,           Kind::kMethod, {},                                                  nullptr},
  // just-host only, for studies/paired-cost.js: a monotonic clock and C's read
  // loop run inside the host, so a JS loop can be timed against C's in the
  // same process, on the same pipe, moments apart.
  {"host",         "nowInto",       HostNowInto,         Kind::kMethod, {},                                                  nullptr},
  {"host",         "readLoop",      HostReadLoop,        Kind::kMethod, {},                                                  nullptr},
  // just-host only, for the call ladder (calls/just.js): a no-op, a bare syscall and
  // the process's CPU clock, as calls/native.c has them for every runtime.
  {"host",         "noop",          ladder::Noop,        Kind::kMethod, kFast<ladder::FastNoop>,                             &ladder::noop_calls},
  {"host",         "getppid",       ladder::Getppid,     Kind::kMethod, kFast<ladder::FastGetppid>,                          &ladder::getppid_calls},
  {"host",         "cpuNs",         ladder::CpuNs,       Kind::kMethod, {},                                                  nullptr},
};

const Constant kConstants[] = {
  {"sys",  "F_GETFL",       F_GETFL},
  {"sys",  "F_SETFL",       F_SETFL},
  {"sys",  "F_GETFD",       F_GETFD},
  {"sys",  "F_SETFD",       F_SETFD},
  {"sys",  "STDIN_FILENO",  STDIN_FILENO},
  {"sys",  "STDOUT_FILENO", STDOUT_FILENO},
  {"sys",  "STDERR_FILENO", STDERR_FILENO},

  {"fs",   "O_RDONLY",      O_RDONLY},

  {"net",  "O_NONBLOCK",    O_NONBLOCK},
  {"net",  "EAGAIN",        EAGAIN},
  {"net",  "EWOULDBLOCK",   EWOULDBLOCK},
  {"net",  "EINTR",         EINTR},
  {"net",  "EINPROGRESS",   EINPROGRESS},
  {"net",  "ECONNRESET",    ECONNRESET},
  {"net",  "EPIPE",         EPIPE},
  {"net",  "AF_INET",       AF_INET},
  {"net",  "AF_UNIX",       AF_UNIX},
  {"net",  "SOCK_STREAM",   SOCK_STREAM},
  {"net",  "SOCK_NONBLOCK", SOCK_NONBLOCK},
  {"net",  "SOCK_CLOEXEC",  SOCK_CLOEXEC},
  {"net",  "SOL_SOCKET",    SOL_SOCKET},
  {"net",  "SO_REUSEADDR",  SO_REUSEADDR},
  {"net",  "SO_ERROR",      SO_ERROR},
  {"net",  "IPPROTO_TCP",   IPPROTO_TCP},
  {"net",  "TCP_NODELAY",   TCP_NODELAY},
  {"net",  "SOMAXCONN",     SOMAXCONN},

  {"loop", "EPOLLIN",       EPOLLIN},
  {"loop", "EPOLLOUT",      EPOLLOUT},
  {"loop", "EPOLLERR",      EPOLLERR},
  {"loop", "EPOLLHUP",      EPOLLHUP},
  // EPOLLET is 1u << 31: as a double it stays positive, and epoll_ctl gets
  // it back bit-exact through ToUint32 in loop.cc.
  {"loop", "EPOLLET",       static_cast<double>(static_cast<uint32_t>(EPOLLET))},
};
// clang-format on

// Returns (creating on first use) the object at dotted `path` under `root`.
Local<Object> ModuleObject(Isolate* isolate, Local<Context> context,
                           Local<Object> root, const char* path) {
  Local<Object> obj = root;
  std::string p(path);
  size_t start = 0;
  while (start < p.size()) {
    size_t dot = p.find('.', start);
    if (dot == std::string::npos) dot = p.size();
    Local<String> key = Str(isolate, p.substr(start, dot - start).c_str());
    Local<Value> existing = obj->Get(context, key).ToLocalChecked();
    if (existing->IsObject()) {
      obj = existing.As<Object>();
    } else {
      Local<Object> child = Object::New(isolate);
      obj->Set(context, key, child).Check();
      obj = child;
    }
    start = dot + 1;
  }
  return obj;
}

Local<v8::Function> NewFunction(Isolate* isolate, Local<Context> context,
                                const Binding& b) {
  // kThrow: these are plain functions; without it every one would also get
  // a lazily-created .prototype object and be usable with `new`.
  // No Signature: a fast call then accepts any receiver, so `read(...)`
  // called through a destructured `const { read } = just.net` is fast too.
  return FunctionTemplate::NewWithCFunctionOverloads(
             isolate, b.slow, Local<Value>(), Local<v8::Signature>(), 0,
             v8::ConstructorBehavior::kThrow,
             v8::SideEffectType::kHasSideEffect, b.fast)
      ->GetFunction(context)
      .ToLocalChecked();
}

// just.host.calls() -> { 'net.read': { fast, fallback, slow }, ... }
void HostCalls(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  Local<Context> context = isolate->GetCurrentContext();
  Local<Object> out = Object::New(isolate);
  for (const Binding& b : kBindings) {
    if (b.calls == nullptr) continue;
    Local<Object> row = Object::New(isolate);
    const std::pair<const char*, uint64_t> fields[] = {
        {"fast", b.calls->fast},
        {"fallback", b.calls->fallback},
        {"slow", b.calls->slow}};
    for (const auto& f : fields) {
      row->Set(context, Str(isolate, f.first),
               Number::New(isolate, static_cast<double>(f.second)))
          .Check();
    }
    std::string key = std::string(b.module) + "." + b.name;
    out->Set(context, Str(isolate, key.c_str()), row).Check();
  }
  args.GetReturnValue().Set(out);
}

// CLOCK_MONOTONIC in nanoseconds, exact in a double for 104 days of uptime.
double MonotonicNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) * 1e9 +
         static_cast<double>(now.tv_nsec);
}

// A Float64Array's elements, as net.read finds a view's bytes (Buffer() moves
// a small on-heap typed array's contents off-heap for good).
double* Float64Slots(Local<v8::Float64Array> array) {
  return reinterpret_cast<double*>(
      static_cast<char*>(array->Buffer()->Data()) + array->ByteOffset());
}

// just.host.nowInto(out, i) writes the monotonic clock, in ns, into out[i]
// (a Float64Array) and returns nothing, so reading it allocates nothing in
// any tier: a returned double would be a new HeapNumber wherever TurboFan has
// not compiled the caller, and that allocation, between two readings, could
// start a garbage collection inside the interval being timed.
void HostNowInto(const FunctionCallbackInfo<Value>& args) {
  const double now = MonotonicNs();
  Isolate* isolate = args.GetIsolate();
  uint32_t index;
  if (!args[0]->IsFloat64Array() ||
      !args[1]->Uint32Value(isolate->GetCurrentContext()).To(&index) ||
      index >= args[0].As<v8::Float64Array>()->Length()) {
    return ThrowTypeError(isolate, "nowInto: out must be a Float64Array and i an index in it");
  }
  Float64Slots(args[0].As<v8::Float64Array>())[index] = now;
}

// just.host.readLoop(fd, address, len, bytes, out): wc.c's loop, read(2) of
// len bytes into address until `bytes` have come or a read returns 0 or -1,
// and out (a Float64Array) gets [size, reads, last]: what came, in how many
// reads, and the last read's result. Written into out rather than returned,
// for the same reason as nowInto. The address and len are refused
// as net.readRaw refuses them (last -1, errno EFAULT or EINVAL), and so is a
// `bytes` that is not above 0 (EINVAL); errno is kept as every binding
// keeps it. Throws a TypeError if out is not a Float64Array of 3 or more.
void HostReadLoop(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  Local<Context> context = isolate->GetCurrentContext();
  if (!args[4]->IsFloat64Array() ||
      args[4].As<v8::Float64Array>()->Length() < 3) {
    return ThrowTypeError(isolate, "readLoop: out must be a Float64Array of 3 or more");
  }
  int32_t fd, len;
  int64_t address;
  bool valid;
  double bytes;
  if (!ArgInt32(args, 0, -1, &fd) || !net::ArgAddress(args, 1, &address, &valid) ||
      !ArgInt32(args, 2, 0, &len) || !args[3]->NumberValue(context).To(&bytes))
    return;
  uint64_t size = 0;
  uint64_t reads = 0;
  ssize_t n = -1;
  if (!valid) {
    state.last_errno = EFAULT;
  } else if (len < 0 || !(bytes > 0)) {
    state.last_errno = EINVAL;
  } else {
    // The loop is wc.c's, integers and all, plus the bound every timed loop
    // checks; errno is read once after it, as wc.c reads it. valgrind counts
    // 20 user-space instructions a read to build/wc-c's 16 (host/README.md);
    // with doubles and errno kept in the loop it was 29.
    // Rounded up: "until `bytes` have come" holds for a fractional count too.
    const uint64_t limit =
        bytes >= 0x1p64 ? UINT64_MAX : static_cast<uint64_t>(std::ceil(bytes));
    char* buf = reinterpret_cast<char*>(address);
    while (size < limit) {
      n = read(fd, buf, static_cast<size_t>(len));
      if (n <= 0) break;
      size += static_cast<uint64_t>(n);
      reads++;
    }
    if (n < 0) state.last_errno = errno;
  }
  double* slots = Float64Slots(args[4].As<v8::Float64Array>());
  slots[0] = static_cast<double>(size);
  slots[1] = static_cast<double>(reads);
  slots[2] = static_cast<double>(n);
}

}  // namespace

Local<Object> CreateJustObject(Isolate* isolate, Local<Context> context,
                               const std::vector<char*>& argv) {
  Local<Object> just = Object::New(isolate);

  for (const Binding& b : kBindings) {
    Local<Object> target = ModuleObject(isolate, context, just, b.module);
    Local<v8::Function> fn = NewFunction(isolate, context, b);
    if (b.kind == Kind::kGetter) {
      target->SetAccessorProperty(Str(isolate, b.name), fn);
    } else {
      target->Set(context, Str(isolate, b.name), fn).Check();
    }
  }
  for (const Constant& c : kConstants) {
    ModuleObject(isolate, context, just, c.module)
        ->Set(context, Str(isolate, c.name), Number::New(isolate, c.value))
        .Check();
  }

  net::LearnArrayBufferLayout(isolate);
  // just-host only: whether net.read's fast path reads ArrayBuffers' fields
  // directly (false: through the API, e.g. on another V8 build).
  ModuleObject(isolate, context, just, "host")
      ->Set(context, Str(isolate, "arrayBufferFields"),
            v8::Boolean::New(isolate, net::ab_layout.known))
      .Check();

  Local<v8::Array> args = v8::Array::New(isolate, static_cast<int>(argv.size()));
  for (size_t i = 0; i < argv.size(); i++)
    args->Set(context, static_cast<uint32_t>(i), Str(isolate, argv[i])).Check();
  just->Set(context, Str(isolate, "args"), args).Check();

  just->Set(context, Str(isolate, "version"), Str(isolate, JUST_HOST_VERSION))
      .Check();
  just->Set(context, Str(isolate, "engine"), Str(isolate, "just-host")).Check();
  Local<Object> versions = Object::New(isolate);
  versions->Set(context, Str(isolate, "just"), Str(isolate, JUST_HOST_VERSION))
      .Check();
  versions->Set(context, Str(isolate, "v8"), Str(isolate, v8::V8::GetVersion()))
      .Check();
  just->Set(context, Str(isolate, "versions"), versions).Check();
  return just;
}

}  // namespace host
