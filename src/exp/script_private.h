/* SPDX-License-Identifier: MIT */
/* the script's insides, for the runner's files that read libconfig themselves (the methods) */
#ifndef TC_SCRIPT_PRIVATE_H
#define TC_SCRIPT_PRIVATE_H

#include <libconfig.h>
#include <stdint.h>

#include "exp/tc_script.h"

struct tc_script {
    config_t cfg;
    char path[1024];
    char tier[16];                /* selected tier */
    config_setting_t *tier_group; /* tiers.<tier>, or NULL when the script has no tiers */
};

/* a tc_setting is a libconfig setting: the casts both ways */
static inline config_setting_t *tc_cs(const tc_setting *v) {
    return (config_setting_t *)(uintptr_t)v;
}
static inline const tc_setting *tc_st(const config_setting_t *v) {
    return (const tc_setting *)v;
}

#endif
