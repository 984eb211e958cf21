# Tests of hooktrace-analyze: synthetic OTF2 archives with known answers.
