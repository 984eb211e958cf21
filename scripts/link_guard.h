/* The link guard for clang (docs/compile.md, "A link step without the
 * prefix"), whose integrated assembler takes no input file through -Wa: the
 * `hooktrace` prefix force-includes this header (-include) into C and C++
 * sources; the same section as scripts/link_guard.s. */
__asm__(".pushsection .hooktrace_guard,\"awRG\",@progbits,hooktrace_guard,comdat\n"
        "\t.p2align 3\n"
        "\t.dc.a hooktrace_link_with_the_hooktrace_prefix\n"
        "\t.popsection");
