#!/bin/sh
# A backend command that never answers, for the certifier's timeout test.
exec sleep 600
