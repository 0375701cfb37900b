#!/usr/bin/env node
require('tsx/cjs');
require('./tessera.ts');
