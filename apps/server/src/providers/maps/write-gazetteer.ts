// Run by build.mjs: writes the offline gazetteer's file beside the compiled server (issue 21 point 4).
import { writeFileSync } from 'node:fs';
import { encodeGazetteer } from './gazetteer';

const target = process.argv[2];
if (!target) throw new Error('usage: node write-gazetteer.js <file>');
writeFileSync(target, encodeGazetteer());
