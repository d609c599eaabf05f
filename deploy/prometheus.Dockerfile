# Prometheus from Debian's package in a stand-in image (deploy/compose.yaml builds it): no image registry but
# Debian's is needed. It scrapes every node's /metrics as deploy/prometheus.yml says and listens on 9090.
FROM debian:bookworm-slim
# no service starts during the build (the package's postinst would start its init script)
RUN printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d \
    && apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus \
    && rm -rf /var/lib/apt/lists/* /usr/sbin/policy-rc.d
COPY prometheus.yml /etc/prometheus/prometheus.yml
USER prometheus
EXPOSE 9090
VOLUME ["/var/lib/prometheus/metrics2"]
CMD ["prometheus", "--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/var/lib/prometheus/metrics2", "--web.listen-address=:9090"]
