package dev.voiceagent.adapters.postgres.apikey;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

@Entity
@Table(name = "api_keys")
public class ApiKeyEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "organization_id", nullable = false)
    public long organizationId;

    @Column(nullable = false)
    public String name;

    @Column(name = "key_hash", nullable = false, unique = true, length = 64)
    public String keyHash;

    @Column(name = "key_prefix", nullable = false, length = 8)
    public String keyPrefix;

    @Column(name = "is_active", nullable = false)
    public boolean active;

    @Column(name = "created_by")
    public Long createdBy;

    @Column(name = "last_used_at")
    public Instant lastUsedAt;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "archived_at")
    public Instant archivedAt;
}
