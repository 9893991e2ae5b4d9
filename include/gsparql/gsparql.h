#pragma once
#include "gsparql/database.h"
#include "gsparql/error.h"
#include "gsparql/load.h"
#include "gsparql/statistics.h"
