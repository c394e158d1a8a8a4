// just-host: a thin just(js)-compatible V8 host for syscall-lab.
//
// Shared declarations between main.cc, runtime.cc, bindings.cc and loop.cc.
// There is exactly one isolate and one context per process, so host state is
// a plain global (`host::state`) rather than being threaded through
// Isolate::GetData(): it keeps every binding a couple of loads shorter.
#ifndef SYSCALL_LAB_HOST_H
#define SYSCALL_LAB_HOST_H

#include <errno.h>
#include <v8.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#define JUST_HOST_VERSION "0.1.0"

// The Makefile links libnode.so.108; headers from any other V8 (e.g. Node
// 20's V8 11.3 in /usr/include/node from NodeSource) compile fine but
// produce a binary that crashes or fails to link, so stop here instead.
static_assert(V8_MAJOR_VERSION == 10 && V8_MINOR_VERSION == 2,
              "V8 headers are not libnode108's V8 10.2: set LIBNODE to the "
              "libnode-dev prefix (run ./setup.sh)");

namespace host {

// Calls of one binding that has a fast path, for just.host.calls(): `fast`
// counts calls completed by the fast C function (TurboFan-optimised call
// sites), `fallback` fast calls that handed the call on to the slow
// callback, `slow` calls of the slow (FunctionCallbackInfo) callback, i.e.
// interpreted and baseline code, fallbacks, and every call when fast calls
// are off (--no-turbo-fast-api-calls). Plain counters: one thread.
struct CallCount {
  uint64_t fast = 0;
  uint64_t fallback = 0;
  uint64_t slow = 0;
};

// One row of the binding table (bindings.cc). `module` is a dotted path off
// the `just` global ("" = `just` itself, "factory.loop" = just.factory.loop).
// `fast` is the binding's V8 fast API functions (host/fast-api.h), one per
// argument count, handed to FunctionTemplate::NewWithCFunctionOverloads;
// empty for bindings that allocate, throw or call JS and so must always
// take the slow path. `calls` is the row's CallCount when it has a fast path.
enum class Kind { kMethod, kGetter };
struct Binding {
  const char* module;
  const char* name;
  v8::FunctionCallback slow;
  Kind kind;
  v8::MemorySpan<const v8::CFunction> fast;
  CallCount* calls;
};

struct Constant {
  const char* module;
  const char* name;
  double value;
};

struct State {
  v8::Platform* platform = nullptr;
  // errno is copied here right after a syscall a binding makes fails
  // (KeepErrno): between the syscall and JS calling sys.errno() V8 may run
  // GC, allocate, take locks etc., any of which can overwrite the thread's
  // errno.
  int last_errno = 0;

  // Event loop (loop.cc).
  int epfd = -1;
  std::unordered_map<int, v8::Global<v8::Function>> handles;
  bool loop_paused = true;
  // Promises rejected with no handler attached yet; reported as uncaught
  // once the microtask queue has drained (same rule as node/d8).
  std::vector<std::pair<v8::Global<v8::Promise>, v8::Global<v8::Value>>>
      rejections;
};
extern State state;

// A syscall's result, with errno kept in state.last_errno when it failed
// (-1: a success can be negative, e.g. fcntl F_GETOWN's process group). As
// with C's errno (and just(js)'s sys.errno(), which reads it), the value
// means something only after a failure; a success leaves it alone, which
// also keeps the thread-local errno lookup (a call into libc) off every
// successful read.
template <typename R>
inline R KeepErrno(R result) {
  if (result == -1) state.last_errno = errno;
  return result;
}

// bindings.cc
v8::Local<v8::Object> CreateJustObject(v8::Isolate* isolate,
                                       v8::Local<v8::Context> context,
                                       const std::vector<char*>& argv);
ssize_t WriteAll(int fd, const char* buf, size_t len);

// loop.cc
bool LoopInit();
void LoopDispose();
// Runs the loop until no fds are registered or factory.stop() is called.
// Returns false with an exception pending on the isolate if a callback threw.
bool LoopRun(v8::Isolate* isolate, int timeout_ms);
int LoopPoll(v8::Isolate* isolate, int timeout_ms, bool* threw);
void LoopAdd(const v8::FunctionCallbackInfo<v8::Value>& args);
void LoopRemove(const v8::FunctionCallbackInfo<v8::Value>& args);
void LoopUpdate(const v8::FunctionCallbackInfo<v8::Value>& args);
void LoopPollBinding(const v8::FunctionCallbackInfo<v8::Value>& args);
void LoopCount(const v8::FunctionCallbackInfo<v8::Value>& args);
void LoopFd(const v8::FunctionCallbackInfo<v8::Value>& args);
void FactoryRun(const v8::FunctionCallbackInfo<v8::Value>& args);
void FactoryStop(const v8::FunctionCallbackInfo<v8::Value>& args);

// embed.cc: the script built into a single binary (wcb), or nullptr in
// just-host. `name` is the script's file name at build time; it stands in
// for the path in just.args[1] and in error locations.
struct Embedded {
  const char* name;
  const char* source;
  size_t size;
};
const Embedded* EmbeddedScript();

// runtime.cc: the steps main() strings together.
struct Options {
  const char* script = nullptr;             // path, or the embedded name
  const Embedded* embedded = nullptr;       // set: run this, read no file
  std::vector<char*> args;  // becomes just.args
  bool threads = false;     // --no-single-threaded: V8 worker threads
};
// Returns -1 to go on, else the exit code (--version, usage error).
// V8 flags are applied here, before V8 is initialized, as V8 requires.
int ParseArgs(int argc, char** argv, Options* opt);
// A whole file into *out: 0, or the errno that stopped it (also used by
// just.load).
int ReadFile(const char* path, std::string* out);
// The embedded script, else the file opt.script.
bool ReadScript(const Options& opt, std::string* source);
std::unique_ptr<v8::Platform> InitV8(const Options& opt);
v8::Isolate* NewIsolate(v8::ArrayBuffer::Allocator* allocator);
v8::Local<v8::Context> NewContext(v8::Isolate* isolate, const Options& opt);
bool RunScript(v8::Isolate* isolate, const char* path,
               const std::string& source);
bool RunLoop(v8::Isolate* isolate);
void Shutdown(v8::Isolate* isolate);

// Drains the microtask queue. An unhandled promise rejection left after it
// is reported as uncaught and ends the process with exit code 1.
void RunMicrotasks(v8::Isolate* isolate);
void ReportException(v8::Isolate* isolate, v8::Local<v8::Value> exception,
                     v8::Local<v8::Message> message);
// Flushes stdio (V8's --trace-* output goes through it) and _exit()s.
[[noreturn]] void Exit(int code);

}  // namespace host

#endif  // SYSCALL_LAB_HOST_H
