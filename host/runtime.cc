// Process-level plumbing: argument parsing, V8/isolate lifetime, running the
// script, error reporting and exit.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libplatform/libplatform.h>

#include "host.h"

using v8::Context;
using v8::HandleScope;
using v8::Isolate;
using v8::Local;
using v8::Message;
using v8::String;
using v8::TryCatch;
using v8::Value;

namespace host {

namespace {

void Usage() {
  static const char kUsage[] =
      "usage: just-host [V8 flags...] script.js [args...]\n"
      "       just-host --version\n";
  WriteAll(2, kUsage, sizeof(kUsage) - 1);
}

std::string ToUtf8(Isolate* isolate, Local<Value> v) {
  // Utf8Value runs toString(), which can itself throw; it then yields null.
  TryCatch inner(isolate);
  String::Utf8Value s(isolate, v);
  return *s ? std::string(*s, s.length()) : std::string("<unprintable>");
}

void OnPromiseReject(v8::PromiseRejectMessage msg) {
  Isolate* isolate = msg.GetPromise()->GetIsolate();
  auto& pending = state.rejections;
  if (msg.GetEvent() == v8::kPromiseRejectWithNoHandler) {
    pending.emplace_back(v8::Global<v8::Promise>(isolate, msg.GetPromise()),
                         v8::Global<Value>(isolate, msg.GetValue()));
  } else if (msg.GetEvent() == v8::kPromiseHandlerAddedAfterReject) {
    for (auto it = pending.begin(); it != pending.end(); ++it) {
      if (it->first == msg.GetPromise()) {
        pending.erase(it);
        break;
      }
    }
  }
}

// V8 spells a negated flag --no-x or --nox, with '-' or '_' inside.
bool IsNoSingleThreaded(const char* arg) {
  std::string a(arg + 2);
  for (char& c : a) c = c == '_' ? '-' : c;
  return a == "no-single-threaded" || a == "nosingle-threaded";
}

}  // namespace

int ParseArgs(int argc, char** argv, Options* opt) {
  opt->embedded = EmbeddedScript();
  if (argc == 2 &&
      (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-v") == 0)) {
    std::string v = std::string("just-host " JUST_HOST_VERSION " v8 ") +
                    v8::V8::GetVersion();
    if (opt->embedded) v += std::string(" (embedded ") + opt->embedded->name + ")";
    v += "\n";
    WriteAll(1, v.data(), v.size());
    return 0;
  }
  std::vector<char*> flags = {argv[0]};
  int i = 1;
  for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
    if (argv[i][2] == '\0') {  // a bare "--" ends the V8 flags
      i++;
      break;
    }
    flags.push_back(argv[i]);
    if (IsNoSingleThreaded(argv[i])) opt->threads = true;
  }
  // Defaults, set before the command line so that it can undo them:
  // --turbo-fast-api-calls: V8 10.2 ships fast API calls switched off, so
  //   without it every binding would stay a slow FunctionCallbackInfo call
  //   even in optimised code (--no-turbo-fast-api-calls: all slow).
  // --single-threaded: no V8 worker threads (compiles and GC on the main
  //   thread; see InitV8 for why a syscall lab wants that).
  static const char kDefaults[] = "--turbo-fast-api-calls --single-threaded";
  v8::V8::SetFlagsFromString(kDefaults, sizeof(kDefaults) - 1);
  // Only the leading flags are handed to V8: with remove_flags it would
  // otherwise also eat `--foo` meant for the script. V8 handles --help
  // itself (prints and exits) and leaves flags it does not know in place.
  int nflags = static_cast<int>(flags.size());
  flags.push_back(nullptr);
  v8::V8::SetFlagsFromCommandLine(&nflags, flags.data(), true);
  if (nflags > 1) {
    for (int f = 1; f < nflags; f++)
      fprintf(stderr, "just-host: unknown V8 flag '%s' (see --help)\n",
              flags[f]);
    return 2;
  }
  if (opt->embedded) {
    // Single binary: every argument after the V8 flags is the script's, so
    // just.args is [argv0, name, ...args] as if it had been given a file.
    // The cast: just.args only reads it, and argv's strings are char*.
    opt->script = opt->embedded->name;
    opt->args.push_back(argv[0]);
    opt->args.push_back(const_cast<char*>(opt->embedded->name));
    for (; i < argc; i++) opt->args.push_back(argv[i]);
    return -1;
  }
  if (i >= argc) {
    Usage();
    return 2;
  }
  opt->script = argv[i];
  opt->args.push_back(argv[0]);
  for (; i < argc; i++) opt->args.push_back(argv[i]);
  return -1;
}

int ReadFile(const char* path, std::string* out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  int err = 0;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n > 0) {
      out->append(buf, static_cast<size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      err = errno;  // e.g. EISDIR: open() succeeds on a directory
      break;
    }
  }
  close(fd);
  return err;
}

bool ReadScript(const Options& opt, std::string* source) {
  if (opt.embedded) {
    source->assign(opt.embedded->source, opt.embedded->size);
    return true;
  }
  if (int err = ReadFile(opt.script, source)) {
    fprintf(stderr, "just-host: cannot read script '%s': %s\n", opt.script,
            strerror(err));
    return false;
  }
  return true;
}

std::unique_ptr<v8::Platform> InitV8(const Options& opt) {
  // libnode's V8 uses the system ICU (libicudata is linked in), so there is
  // no icudtl.dat to point InitializeICU at; Intl works without the call.
  //
  // Single-threaded by default (V8's --single-threaded plus a platform with
  // no worker pool), because one extra thread makes every syscall dearer:
  // Linux takes and drops a reference on the file in read(2) once the fd
  // table is shared between threads (fdget/fput atomics, skipped while the
  // process has one thread), and glibc wraps each read in the
  // enable/disable-async-cancel calls once a thread has ever existed. A
  // single-threaded C reader pays neither; with a worker pool just-host paid
  // ~50 ns more per read(2) of /dev/zero than with none. Threads are only
  // started if the command line asks for them (--no-single-threaded): a
  // pool-less platform would leave V8's background jobs unrun.
  std::unique_ptr<v8::Platform> platform =
      opt.threads ? v8::platform::NewDefaultPlatform()
                  : v8::platform::NewSingleThreadedDefaultPlatform();
  v8::V8::InitializePlatform(platform.get());
  // V8::Initialize() is inline and checks the embedder's header
  // configuration (pointer compression, sandbox) against the library's:
  // a mismatch aborts here with a clear message instead of crashing later.
  v8::V8::Initialize();
  state.platform = platform.get();
  return platform;
}

Isolate* NewIsolate(v8::ArrayBuffer::Allocator* allocator) {
  Isolate::CreateParams params;
  params.array_buffer_allocator = allocator;
  Isolate* isolate = Isolate::New(params);
  // Explicit: with the default kAuto policy microtasks only run when the
  // JS call depth drops to 0, i.e. never during factory.run() called from
  // JS. The loop drains them after every poll, like just(js) does.
  isolate->SetMicrotasksPolicy(v8::MicrotasksPolicy::kExplicit);
  isolate->SetPromiseRejectCallback(OnPromiseReject);
  return isolate;
}

Local<Context> NewContext(Isolate* isolate, const Options& opt) {
  v8::EscapableHandleScope scope(isolate);
  Local<Context> context = Context::New(isolate);
  // Object::New() and friends allocate in the *entered* context.
  Context::Scope context_scope(context);
  if (!LoopInit()) {
    perror("just-host: epoll_create1");
    Exit(1);
  }
  context->Global()
      ->Set(context, String::NewFromUtf8Literal(isolate, "just"),
            CreateJustObject(isolate, context, opt.args))
      .Check();
  return scope.Escape(context);
}

bool RunScript(Isolate* isolate, const char* path, const std::string& source) {
  HandleScope scope(isolate);
  Local<Context> context = isolate->GetCurrentContext();
  TryCatch try_catch(isolate);
  Local<String> src;
  if (!String::NewFromUtf8(isolate, source.data(), v8::NewStringType::kNormal,
                           static_cast<int>(source.size()))
           .ToLocal(&src)) {
    fprintf(stderr, "just-host: script '%s' is too large\n", path);
    return false;
  }
  v8::ScriptOrigin origin(isolate, String::NewFromUtf8(isolate, path)
                                       .ToLocalChecked());
  Local<v8::Script> script;
  if (!v8::Script::Compile(context, src, &origin).ToLocal(&script) ||
      script->Run(context).IsEmpty()) {
    ReportException(isolate, try_catch.Exception(), try_catch.Message());
    return false;
  }
  RunMicrotasks(isolate);
  return true;
}

bool RunLoop(Isolate* isolate) {
  HandleScope scope(isolate);
  TryCatch try_catch(isolate);
  if (!LoopRun(isolate, -1)) {
    ReportException(isolate, try_catch.Exception(), try_catch.Message());
    return false;
  }
  // Let V8 finish any foreground tasks it posted (e.g. GC finalization)
  // before tearing the isolate down.
  while (v8::platform::PumpMessageLoop(state.platform, isolate)) {
  }
  return true;
}

void Shutdown(Isolate* isolate) {
  LoopDispose();
  state.rejections.clear();
  isolate->Dispose();
  v8::V8::Dispose();
  v8::V8::DisposePlatform();
  fflush(stdout);
  fflush(stderr);
}

void RunMicrotasks(Isolate* isolate) {
  isolate->PerformMicrotaskCheckpoint();
  if (state.rejections.empty()) return;
  HandleScope scope(isolate);
  Local<Value> reason = state.rejections.front().second.Get(isolate);
  fprintf(stderr, "just-host: unhandled promise rejection\n");
  ReportException(isolate, reason,
                  v8::Exception::CreateMessage(isolate, reason));
  Exit(1);
}

void ReportException(Isolate* isolate, Local<Value> exception,
                     Local<Message> message) {
  HandleScope scope(isolate);
  Local<Context> context = isolate->GetCurrentContext();
  std::string out;
  if (!message.IsEmpty()) {
    // node-style header: where, the source line, a caret under the culprit.
    out += ToUtf8(isolate, message->GetScriptResourceName());
    int line = message->GetLineNumber(context).FromMaybe(0);
    int start = message->GetStartColumn(context).FromMaybe(0);
    int end = message->GetEndColumn(context).FromMaybe(start + 1);
    out += ":" + std::to_string(line) + ":" + std::to_string(start + 1) + "\n";
    Local<String> source_line;
    if (message->GetSourceLine(context).ToLocal(&source_line)) {
      std::string src = ToUtf8(isolate, source_line);
      out += src + "\n";
      // Columns count UTF-16 units; good enough for ASCII source. Tabs are
      // copied so the caret lines up in a terminal.
      for (int c = 0; c < start && c < static_cast<int>(src.size()); c++)
        out += src[c] == '\t' ? '\t' : ' ';
      out.append(static_cast<size_t>(end > start ? end - start : 1), '^');
      out += "\n";
    }
    out += "\n";
  }
  // Prefer error.stack (it starts with "Name: message"); for thrown
  // non-Errors (throw 'x') fall back to the value itself.
  Local<Value> stack;
  if (exception->IsObject() &&
      exception.As<v8::Object>()
          ->Get(context, String::NewFromUtf8Literal(isolate, "stack"))
          .ToLocal(&stack) &&
      stack->IsString() && stack.As<String>()->Length() > 0) {
    out += ToUtf8(isolate, stack);
  } else {
    out += "Uncaught " + ToUtf8(isolate, exception);
  }
  out += "\n";
  WriteAll(2, out.data(), out.size());
}

// just.exit() (and a fatal unhandled rejection) end the process from inside
// a V8 callback, with JS frames still on the stack. exit() would run
// libnode's static destructors and atexit handlers while V8's worker
// threads and this isolate are live, which can crash or hang; so flush what
// stdio holds (V8's --trace-* output and perror go through it; just.print
// writes straight to the fd) and _exit(). The kernel reclaims the rest.
[[noreturn]] void Exit(int code) {
  fflush(stdout);
  fflush(stderr);
  _exit(code);
}

}  // namespace host
