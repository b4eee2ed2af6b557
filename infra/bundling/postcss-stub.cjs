// Stands in for postcss in the Lambda bundles (infra/bundling.ts). sanitize-html requires postcss
// when it loads but calls it only to parse style attributes, which lib/pipeline/steps/sanitize.ts
// turns off (parseStyleAttributes: false): ~87 KB (postcss and source-map-js) no function runs.
/* global exports */
'use strict';

exports.parse = () => {
  throw new Error('postcss is not bundled: sanitize-html must run with parseStyleAttributes: false');
};
