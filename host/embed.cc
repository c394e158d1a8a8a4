// The script a single-binary build carries inside the executable.
//
//   make -C host wcb SCRIPT=../wc/wc.js   -> ../build/wcb, runs wc.js with no
//                                           script file present
//
// This file is compiled twice: plainly for just-host (no script: the
// script comes from the command line) and with JUST_EMBED_SCRIPT set to the
// script's absolute path for wcb. The bytes are pulled in by the
// assembler's .incbin, so there is no generator step (xxd, ld -b binary and
// its path-derived symbol names) and the Makefile lists the script as a
// prerequisite so an edit re-embeds it.
#include "host.h"

#ifdef JUST_EMBED_SCRIPT

// .hidden: the symbols only need to link inside this binary.
asm(".pushsection .rodata\n"
    ".global just_embedded_script\n"
    ".hidden just_embedded_script\n"
    "just_embedded_script:\n"
    ".incbin \"" JUST_EMBED_SCRIPT "\"\n"
    ".global just_embedded_script_end\n"
    ".hidden just_embedded_script_end\n"
    "just_embedded_script_end:\n"
    ".popsection\n");
extern "C" const char just_embedded_script[];
extern "C" const char just_embedded_script_end[];

namespace host {
const Embedded* EmbeddedScript() {
  static const Embedded script = {
      JUST_EMBED_NAME, just_embedded_script,
      static_cast<size_t>(just_embedded_script_end - just_embedded_script)};
  return &script;
}
}  // namespace host

#else

namespace host {
const Embedded* EmbeddedScript() { return nullptr; }
}  // namespace host

#endif
