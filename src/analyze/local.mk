# hooktrace-analyze: the OTF2 analyzer program (issue 6).
