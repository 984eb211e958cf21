EXTRA_DIST += src/common/compiler.h
