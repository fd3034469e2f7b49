/**
 * Import rules of the layout (README "Architecture", CONTRIBUTING "Layout"); checked by
 * test/architecture.test.ts in `npm test` and by `npm run lint:deps`.
 *
 *   src/server (host) → rest → schema → src/<area> → src/db
 *   src/server        → workers → src/<area>
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-layer-above',
      comment:
        'The domain (src/ except the host in src/server/) never imports schema/, rest/, workers/ or src/server/.',
      severity: 'error',
      from: { path: '^src/(?!server/)' },
      to: { path: '^(schema|rest|workers)/|^src/server/' },
    },
    {
      name: 'schema-and-workers-not-rest',
      comment: 'GraphQL modules and job processors never import the REST layer.',
      severity: 'error',
      from: { path: '^(schema|workers)/' },
      to: { path: '^rest/' },
    },
    {
      name: 'layers-not-host',
      comment: 'Only the host starts things: schema/, rest/ and workers/ never import src/server/.',
      severity: 'error',
      from: { path: '^(schema|rest|workers)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'rest-no-prisma',
      comment:
        'The REST layer runs GraphQL operations and src/ services; it never touches Prisma or the database layer.',
      severity: 'error',
      from: { path: '^rest/' },
      to: { path: '^src/generated/|^src/db/|@prisma/' },
    },
    {
      name: 'no-circular',
      comment: 'No import circles in the service code.',
      severity: 'error',
      from: { path: '^(src|schema|rest|workers)/' },
      to: { circular: true, pathNot: '^src/generated/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
