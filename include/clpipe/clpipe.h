// clpipe public API: include this one header.
#pragma once

#include "clpipe/context.h"
#include "clpipe/defines.h"
#include "clpipe/format.h"
#include "clpipe/screen.h"
#include "clpipe/state.h"
#include "clpipe/status.h"
