        return this;
    }
    withSSLCert(caCertFile, certFile, keyFile) {
        if (!caCertFile)
            throw new Error("SSL CA certificate file should not be empty.");
        return this.withSSL(certFile, keyFile, caCertFile);
    }
    async start() {
        this.withEnvironment({
            POSTGRES_DB: this.database,
            POSTGRES_USER: this.username,
            POSTGRES_PASSWORD: this.password,
        });
        if (this.sslConfig) {
            const command = this.createOpts.Cmd;
            if (!command || command[0] === "postgres") {
                this.withCommand([
                    ...(command ?? ["postgres"]),
                    "-c",
                    "ssl=on",
                    "-c",
                    `ssl_cert_file=${POSTGRES_SSL_CERT_PATH}`,
                    "-c",
                    `ssl_key_file=${POSTGRES_SSL_KEY_PATH}`,
                    ...(this.sslConfig.caCertPath ? ["-c", `ssl_ca_file=${this.sslConfig.caCertPath}`] : []),
                ]);
            }
        }
        if (!this.healthCheck) {
            this.withHealthCheck({
                test: [
                    "CMD-SHELL",
                    `PGPASSWORD=${this.password} pg_isready --host localhost --username ${this.username} --dbname ${this.database}`,
                ],
                interval: 250,
                timeout: 1000,
                retries: 1000,
            });
        }
        return new StartedPostgreSqlContainer(await super.start(), this.database, this.username, this.password);
    }
}
exports.PostgreSqlContainer = PostgreSqlContainer;
class StartedPostgreSqlContainer extends testcontainers_1.AbstractStartedContainer {
    database;
    username;
