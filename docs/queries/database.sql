-- The SQL of src/database/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- ServerSecrets.get
INSERT INTO server_secrets (name, value) VALUES ($1, $2)
          ON CONFLICT (name) DO NOTHING;

-- ServerSecrets.get
SELECT value FROM server_secrets WHERE name = $1;

-- ServerSecrets.load
INSERT INTO server_secrets (name, value) VALUES ($1, $2)
          ON CONFLICT (name) DO NOTHING;

-- ServerSecrets.load
SELECT value FROM server_secrets WHERE name = $1;
