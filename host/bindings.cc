// The `just` global: every native function the host exposes is one row of
// kBindings below, every number one row of kConstants. CreateJustObject()
// turns the tables into objects; nothing else registers bindings.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <string>

#include "host.h"

using v8::ArrayBuffer;
using v8::ArrayBufferView;
using v8::Context;
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

void Throw(Isolate* isolate, Local<Value> (*make)(Local<String>),
           const char* msg) {
  isolate->ThrowException(make(Str(isolate, msg)));
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

}  // namespace core

namespace sys {

void Fcntl(const FunctionCallbackInfo<Value>& args) {
  int32_t fd, cmd, arg;
  if (!ArgInt32(args, 0, -1, &fd) || !ArgInt32(args, 1, -1, &cmd) ||
      !ArgInt32(args, 2, 0, &arg))
    return;
  int r = fcntl(fd, cmd, arg);
  state.last_errno = errno;
  args.GetReturnValue().Set(r);
}

void Errno(const FunctionCallbackInfo<Value>& args) {
  args.GetReturnValue().Set(state.last_errno);
}

void StrError(const FunctionCallbackInfo<Value>& args) {
  int32_t n;
  if (!ArgInt32(args, 0, state.last_errno, &n)) return;
  args.GetReturnValue().Set(Str(args.GetIsolate(), strerror(n)));
}

void Pid(const FunctionCallbackInfo<Value>& args) {
  args.GetReturnValue().Set(static_cast<int32_t>(getpid()));
}

void RunMicroTasks(const FunctionCallbackInfo<Value>& args) {
  RunMicrotasks(args.GetIsolate());
}

}  // namespace sys

namespace net {

// read(fd, buf)            -> reads buf.byteLength bytes at 0 (just 0.0.21)
// read(fd, buf, off)       -> reads byteLength - off bytes at off
// read(fd, buf, off, len)  -> reads len bytes at off (just 0.1.x)
// buf: ArrayBuffer, SharedArrayBuffer or any view (off is relative to the
// view's byteOffset, in bytes). Bounds are checked in doubles so no
// combination of off/len can wrap around and reach outside the buffer.
void Read(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  int32_t fd;
  if (!ArgInt32(args, 0, -1, &fd)) return;
  Local<Value> b = args[1];
  char* base;
  size_t size;
  if (b->IsArrayBuffer()) {
    Local<ArrayBuffer> ab = b.As<ArrayBuffer>();
    base = static_cast<char*>(ab->Data());
    size = ab->ByteLength();
  } else if (b->IsArrayBufferView()) {
    // Buffer() moves a small on-heap typed array's bytes off-heap once, so
    // the pointer stays valid across the read.
    Local<ArrayBufferView> view = b.As<ArrayBufferView>();
    base = static_cast<char*>(view->Buffer()->Data()) + view->ByteOffset();
    size = view->ByteLength();
  } else if (b->IsSharedArrayBuffer()) {
    Local<v8::SharedArrayBuffer> sab = b.As<v8::SharedArrayBuffer>();
    base = static_cast<char*>(sab->Data());
    size = sab->ByteLength();
  } else {
    Throw(isolate, v8::Exception::TypeError,
          "read: buf must be an ArrayBuffer or ArrayBufferView");
    return;
  }
  double off = 0, len;
  int argc = args.Length();
  if (argc > 2 && !args[2]->IsUndefined()) {
    if (!args[2]->IsNumber()) {
      Throw(isolate, v8::Exception::TypeError, "read: off must be a number");
      return;
    }
    off = args[2].As<Number>()->Value();
  }
  if (!(off >= 0 && off <= static_cast<double>(size) && off == std::floor(off))) {
    Throw(isolate, v8::Exception::RangeError,
          "read: off must be an integer in [0, buf.byteLength]");
    return;
  }
  len = static_cast<double>(size) - off;
  if (argc > 3 && !args[3]->IsUndefined()) {
    if (!args[3]->IsNumber()) {
      Throw(isolate, v8::Exception::TypeError, "read: len must be a number");
      return;
    }
    len = args[3].As<Number>()->Value();
  }
  if (!(len >= 0 && len <= static_cast<double>(size) - off &&
        len == std::floor(len))) {
    Throw(isolate, v8::Exception::RangeError,
          "read: len must be an integer with off + len <= buf.byteLength");
    return;
  }
  ssize_t r = read(fd, base + static_cast<size_t>(off), static_cast<size_t>(len));
  state.last_errno = errno;
  // Linux caps a single read at 0x7ffff000 bytes, so r always fits an int32
  // (a Smi for V8, no heap number allocated per call).
  args.GetReturnValue().Set(static_cast<int32_t>(r));
}

void Close(const FunctionCallbackInfo<Value>& args) {
  int32_t fd;
  if (!ArgInt32(args, 0, -1, &fd)) return;
  int r = close(fd);
  state.last_errno = errno;
  args.GetReturnValue().Set(r);
}

}  // namespace net

namespace {

// clang-format off
const Binding kBindings[] = {
  // module          name             slow callback          kind           fast
  {"",             "print",         core::Print,           Kind::kMethod, nullptr},
  {"",             "error",         core::Error,           Kind::kMethod, nullptr},
  {"",             "exit",          core::ExitBinding,     Kind::kMethod, nullptr},
  {"",             "memoryUsage",   core::MemoryUsage,     Kind::kMethod, nullptr},

  {"sys",          "fcntl",         sys::Fcntl,            Kind::kMethod, nullptr},
  {"sys",          "errno",         sys::Errno,            Kind::kMethod, nullptr},
  {"sys",          "strerror",      sys::StrError,         Kind::kMethod, nullptr},
  {"sys",          "pid",           sys::Pid,              Kind::kMethod, nullptr},
  {"sys",          "runMicroTasks", sys::RunMicroTasks,    Kind::kMethod, nullptr},

  {"net",          "read",          net::Read,             Kind::kMethod, nullptr},
  {"net",          "close",         net::Close,            Kind::kMethod, nullptr},

  {"factory",      "run",           FactoryRun,            Kind::kMethod, nullptr},
  {"factory",      "stop",          FactoryStop,           Kind::kMethod, nullptr},
  {"factory.loop", "add",           LoopAdd,               Kind::kMethod, nullptr},
  {"factory.loop", "remove",        LoopRemove,            Kind::kMethod, nullptr},
  {"factory.loop", "update",        LoopUpdate,            Kind::kMethod, nullptr},
  {"factory.loop", "poll",          LoopPollBinding,       Kind::kMethod, nullptr},
  {"factory.loop", "count",         LoopCount,             Kind::kGetter, nullptr},
  {"factory.loop", "fd",            LoopFd,                Kind::kGetter, nullptr},
};

const Constant kConstants[] = {
  {"sys",  "F_GETFL",       F_GETFL},
  {"sys",  "F_SETFL",       F_SETFL},
  {"sys",  "F_GETFD",       F_GETFD},
  {"sys",  "F_SETFD",       F_SETFD},
  {"sys",  "STDIN_FILENO",  STDIN_FILENO},
  {"sys",  "STDOUT_FILENO", STDOUT_FILENO},
  {"sys",  "STDERR_FILENO", STDERR_FILENO},

  {"net",  "O_NONBLOCK",    O_NONBLOCK},
  {"net",  "EAGAIN",        EAGAIN},
  {"net",  "EWOULDBLOCK",   EWOULDBLOCK},
  {"net",  "EINTR",         EINTR},

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
  return FunctionTemplate::New(isolate, b.slow, Local<Value>(),
                               Local<v8::Signature>(), 0,
                               v8::ConstructorBehavior::kThrow,
                               v8::SideEffectType::kHasSideEffect, b.fast)
      ->GetFunction(context)
      .ToLocalChecked();
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
