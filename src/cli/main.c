/* SPDX-License-Identifier: MIT */
/* the touche program (placeholder until the CLI lands) */
int main(void) { return 0; }
