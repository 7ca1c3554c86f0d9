import { z } from 'zod';

// Zod compiles validators with new Function() when it may; our CSP forbids eval in script-src (as it should),
// and the probe alone would log a violation. The interpreted path is as correct and fast enough for forms.
z.config({ jitless: true });
