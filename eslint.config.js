// Type-aware lint (typescript-eslint). The rules that catch what review misses in a Node service:
// a promise nobody awaits (its rejection is lost or crashes the process) and a promise handed where
// a plain callback is expected (Express handlers, event emitters, setTimeout).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'dist.*/**',
      'console/dist/**',
      'src/generated/**',
      'console/src/graphql-env.d.ts',
      'sdk/src/graphql-env.d.ts',
      'sdk/dist/**',
      'stubs/**',
      'data/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: { allowDefaultProject: ['console/vite.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
