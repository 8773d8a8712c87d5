#!/bin/sh
# A backend command that crashes on every model (SIGSEGV), for the certifier's isolation test.
kill -SEGV $$
