import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
    { ignores: ['dist/', 'coverage/', 'node_modules/', 'docs/api/', 'examples/*/dist/', '**/*.d.ts'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        languageOptions: {
            globals: {
                console: 'readonly',
                process: 'readonly',
                performance: 'readonly',
                window: 'readonly',
                document: 'readonly',
                URL: 'readonly',
                setTimeout: 'readonly'
            }
        },
        rules: {
            'prefer-const': 'error',
            eqeqeq: ['error', 'smart'],
            'no-var': 'error',
            semi: ['error', 'always'],
            quotes: ['error', 'single', { avoidEscape: true }],
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
            '@typescript-eslint/no-explicit-any': 'error'
        }
    }
);
