// just.factory.loop: one epoll instance per process, callbacks kept in a
// fd -> Function map. Mirrors just(js) lib/loop.js (add/remove/update/poll,
// count) but in C++, so `count` is a getter over the map rather than a
// counter JS could get out of step.
//
// Level-triggered unless the caller passes EPOLLET. A callback that neither
// drains nor removes a level-triggered fd gets called again on every poll:
// that spin is the script's bug, the loop does not try to detect it.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <string>

#include "host.h"

using v8::Context;
using v8::Function;
using v8::FunctionCallbackInfo;
using v8::HandleScope;
using v8::Integer;
using v8::Isolate;
using v8::Local;
using v8::Value;

namespace host {

namespace {

constexpr int kMaxEvents = 128;

bool ArgFd(const FunctionCallbackInfo<Value>& args, int32_t* fd) {
  return args[0]->Int32Value(args.GetIsolate()->GetCurrentContext()).To(fd);
}

// Event masks go through ToUint32 because EPOLLET is bit 31: as an Int32 it
// would be negative and as a plain double it does not fit epoll's uint32_t.
bool ArgEvents(const FunctionCallbackInfo<Value>& args, int i,
               uint32_t* events) {
  if (args[i]->IsUndefined()) {
    *events = EPOLLIN;
    return true;
  }
  return args[i]->Uint32Value(args.GetIsolate()->GetCurrentContext())
      .To(events);
}

bool ArgTimeout(const FunctionCallbackInfo<Value>& args, int i, int* ms) {
  if (args[i]->IsUndefined()) {
    *ms = -1;
    return true;
  }
  int32_t v;
  if (!args[i]->Int32Value(args.GetIsolate()->GetCurrentContext()).To(&v))
    return false;
  *ms = v;
  return true;
}

}  // namespace

bool LoopInit() {
  int fd = epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0) return false;
  // Keep the epoll fd out of 0..2: if the host was started with stdin closed
  // (`0<&-`) the kernel would hand out fd 0, and the script's read(0) would
  // hit the epoll fd (EINVAL) instead of failing with EBADF.
  if (fd <= STDERR_FILENO) {
    int high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    close(fd);
    fd = high;
  }
  state.epfd = fd;
  return fd >= 0;
}

void LoopDispose() {
  state.handles.clear();  // Global dtors Reset() the handles
  if (state.epfd >= 0) close(state.epfd);
  state.epfd = -1;
}

int LoopPoll(Isolate* isolate, int timeout_ms, bool* threw) {
  struct epoll_event events[kMaxEvents];
  *threw = false;
  int n = KeepErrno(epoll_wait(state.epfd, events, kMaxEvents, timeout_ms));
  if (n <= 0) return n;
  Local<Context> context = isolate->GetCurrentContext();
  for (int i = 0; i < n; i++) {
    // An earlier callback in this batch may have removed this fd.
    auto it = state.handles.find(events[i].data.fd);
    if (it == state.handles.end()) continue;
    HandleScope scope(isolate);
    Local<Function> cb = it->second.Get(isolate);
    Local<Value> argv[2] = {
        Integer::New(isolate, events[i].data.fd),
        Integer::NewFromUnsigned(isolate, events[i].events)};
    if (cb->Call(context, v8::Undefined(isolate), 2, argv).IsEmpty()) {
      *threw = true;
      return n;
    }
  }
  return n;
}

bool LoopRun(Isolate* isolate, int timeout_ms) {
  state.loop_paused = false;
  for (;;) {
    RunMicrotasks(isolate);
    if (state.loop_paused || state.handles.empty()) break;
    HandleScope scope(isolate);
    bool threw;
    int n = LoopPoll(isolate, timeout_ms, &threw);
    if (threw) {
      state.loop_paused = true;
      return false;
    }
    if (n < 0 && state.last_errno != EINTR) {
      // epoll_wait only fails like this if the epoll fd itself is broken;
      // retrying would spin, so surface it as an exception.
      std::string msg = std::string("epoll_wait: ") + strerror(state.last_errno);
      isolate->ThrowException(v8::Exception::Error(
          v8::String::NewFromUtf8(isolate, msg.c_str()).ToLocalChecked()));
      state.loop_paused = true;
      return false;
    }
  }
  state.loop_paused = true;
  return true;
}

void LoopAdd(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  int32_t fd;
  uint32_t events;
  if (!ArgFd(args, &fd)) return;
  if (!args[1]->IsFunction()) {
    isolate->ThrowException(v8::Exception::TypeError(
        v8::String::NewFromUtf8Literal(isolate,
                                       "loop.add: callback must be a function")));
    return;
  }
  if (!ArgEvents(args, 2, &events)) return;
  struct epoll_event ev;
  memset(&ev, 0, sizeof(ev));
  ev.events = events;
  ev.data.fd = fd;
  int r = KeepErrno(epoll_ctl(state.epfd, EPOLL_CTL_ADD, fd, &ev));
  if (r == 0) state.handles[fd].Reset(isolate, args[1].As<Function>());
  args.GetReturnValue().Set(r);
}

void LoopRemove(const FunctionCallbackInfo<Value>& args) {
  int32_t fd;
  if (!ArgFd(args, &fd)) return;
  // Pre-2.6.9 kernels require a non-null event even for EPOLL_CTL_DEL.
  struct epoll_event ev;
  memset(&ev, 0, sizeof(ev));
  int r = KeepErrno(epoll_ctl(state.epfd, EPOLL_CTL_DEL, fd, &ev));
  // If the script closed the fd before removing it, the kernel has already
  // dropped it from the epoll set (EBADF/ENOENT here). Forget the callback
  // anyway, or `count` would never reach 0 and the loop would block forever.
  if (r == 0 || state.last_errno == EBADF || state.last_errno == ENOENT)
    state.handles.erase(fd);
  args.GetReturnValue().Set(r);
}

void LoopUpdate(const FunctionCallbackInfo<Value>& args) {
  int32_t fd;
  uint32_t events;
  if (!ArgFd(args, &fd) || !ArgEvents(args, 1, &events)) return;
  struct epoll_event ev;
  memset(&ev, 0, sizeof(ev));
  ev.events = events;
  ev.data.fd = fd;
  int r = KeepErrno(epoll_ctl(state.epfd, EPOLL_CTL_MOD, fd, &ev));
  args.GetReturnValue().Set(r);
}

void LoopPollBinding(const FunctionCallbackInfo<Value>& args) {
  int ms;
  if (!ArgTimeout(args, 0, &ms)) return;
  bool threw;
  int n = LoopPoll(args.GetIsolate(), ms, &threw);
  if (threw) return;  // exception propagates to the JS caller
  args.GetReturnValue().Set(n);
}

void LoopCount(const FunctionCallbackInfo<Value>& args) {
  args.GetReturnValue().Set(static_cast<uint32_t>(state.handles.size()));
}

void LoopFd(const FunctionCallbackInfo<Value>& args) {
  args.GetReturnValue().Set(state.epfd);
}

void FactoryRun(const FunctionCallbackInfo<Value>& args) {
  int ms;
  if (!ArgTimeout(args, 0, &ms)) return;
  LoopRun(args.GetIsolate(), ms);  // on failure the exception propagates
}

void FactoryStop(const FunctionCallbackInfo<Value>&) {
  state.loop_paused = true;
}

}  // namespace host
