// just-host: just-host [V8 flags...] script.js [args...]
// wcb (script built in, see embed.cc): wcb [V8 flags...] [args...]
// The whole life of the process, one step per line; see runtime.cc.
#include "host.h"

int main(int argc, char** argv) {
  host::Options opt;
  int rc = host::ParseArgs(argc, argv, &opt);
  if (rc >= 0) return rc;
  std::string source;
  if (!host::ReadScript(opt, &source)) return 1;

  std::unique_ptr<v8::Platform> platform = host::InitV8(opt);
  std::unique_ptr<v8::ArrayBuffer::Allocator> allocator(
      v8::ArrayBuffer::Allocator::NewDefaultAllocator());
  v8::Isolate* isolate = host::NewIsolate(allocator.get());
  {
    v8::Isolate::Scope isolate_scope(isolate);
    v8::HandleScope handle_scope(isolate);
    v8::Local<v8::Context> context = host::NewContext(isolate, opt);
    v8::Context::Scope context_scope(context);
    rc = host::RunScript(isolate, opt.script, source) &&
                 host::RunLoop(isolate)
             ? 0
             : 1;
  }
  host::Shutdown(isolate);
  return rc;
}
