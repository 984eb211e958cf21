# The link guard (docs/compile.md, "A link step without the prefix"): the
# `hooktrace` prefix hands this file to GNU as beside the compiler's own
# output (-Wa,FILE: as assembles its input files as one), so that each
# object it compiles references a symbol only libhooktrace defines.
# Writable (no text relocation), kept by --gc-sections (R), and one copy
# per program or library (a COMDAT group): one relocation at load time.
	.pushsection .hooktrace_guard,"awRG",@progbits,hooktrace_guard,comdat
	.p2align 3
	.dc.a hooktrace_link_with_the_hooktrace_prefix
	.popsection
