#!/usr/bin/env node
// The `sesame` bin (node_modules/.bin/sesame in the checkout): the launcher `npm run sesame` runs, without npm.
import '../../scripts/sesame.mjs';
