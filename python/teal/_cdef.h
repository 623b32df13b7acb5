/* The part of Teal's C API the Python package binds (cffi cdef syntax:
 * declarations only, no macros). API mode checks every line against the
 * real headers when the extension is compiled. */
typedef struct teal_error { int code; char message[512]; } teal_error;
const char *teal_strerror(int code);
unsigned long teal_alloc_count(void);

typedef struct teal_system teal_system;
typedef struct teal_context teal_context;
typedef struct teal_input_port teal_input_port;
typedef struct teal_output_port teal_output_port;
typedef struct teal_builder teal_builder;
typedef struct teal_simulator teal_simulator;
typedef struct teal_plant teal_plant;
typedef struct teal_scene_graph teal_scene_graph;

/* systems and ports */
void teal_system_free(teal_system *sys);
const char *teal_system_name(const teal_system *sys);
const teal_error *teal_system_error(const teal_system *sys);
int teal_system_num_input_ports(const teal_system *sys);
int teal_system_num_output_ports(const teal_system *sys);
const teal_input_port *teal_system_input_port(const teal_system *sys, int i);
const teal_output_port *teal_system_output_port(const teal_system *sys, int i);
const teal_input_port *teal_system_input_port_by_name(const teal_system *sys, const char *name);
const teal_output_port *teal_system_output_port_by_name(const teal_system *sys, const char *name);
const char *teal_input_port_name(const teal_input_port *port);
int teal_input_port_index(const teal_input_port *port);
int teal_input_port_size(const teal_input_port *port);
const char *teal_output_port_name(const teal_output_port *port);
int teal_output_port_index(const teal_output_port *port);
int teal_output_port_size(const teal_output_port *port);
int teal_system_num_continuous_states(const teal_system *sys, int *nq, int *nv, int *nz);
int teal_system_num_discrete_states(const teal_system *sys);

/* builder */
teal_builder *teal_builder_new(const char *name);
void teal_builder_free(teal_builder *b);
const teal_error *teal_builder_error(const teal_builder *b);
teal_system *teal_builder_add(teal_builder *b, teal_system *sys);
int teal_builder_connect(teal_builder *b, const teal_output_port *src, const teal_input_port *dst);
int teal_builder_export_input(teal_builder *b, const teal_input_port *dst, const char *name);
int teal_builder_export_output(teal_builder *b, const teal_output_port *src, const char *name);
teal_system *teal_builder_build(teal_builder *b, teal_error *err);

/* contexts */
teal_context *teal_context_new(const teal_system *sys, teal_error *err);
void teal_context_free(teal_context *ctx);
int teal_context_set_to_defaults(teal_context *ctx);
const teal_system *teal_context_system(const teal_context *ctx);
const teal_error *teal_context_error(const teal_context *ctx);
int teal_context_is_root(const teal_context *ctx);
teal_context *teal_context_subcontext_mut(teal_context *ctx, const teal_system *sub);
double teal_context_time(const teal_context *ctx);
int teal_context_set_time(teal_context *ctx, double t);
int teal_context_set_continuous_state(teal_context *ctx, const double *x, int n);
int teal_context_get_continuous_state(const teal_context *ctx, double *x, int n);
const double *teal_context_discrete_state(const teal_context *ctx);
int teal_context_fix_input(teal_context *ctx, int port, const double *value, int n);
int teal_eval_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                            const double **value);

/* simulator */
typedef enum teal_sim_outcome {
  TEAL_SIM_REACHED_END = 0, TEAL_SIM_TERMINATED = 1, TEAL_SIM_FAILED = 2
} teal_sim_outcome;
typedef struct teal_sim_status {
  teal_sim_outcome outcome; int code; double time; char message[512];
} teal_sim_status;
teal_simulator *teal_simulator_new(const teal_system *sys, teal_context *ctx, teal_error *err);
void teal_simulator_free(teal_simulator *sim);
teal_context *teal_simulator_context(teal_simulator *sim);
const teal_error *teal_simulator_error(const teal_simulator *sim);
int teal_simulator_initialize(teal_simulator *sim, teal_sim_status *status);
int teal_simulator_advance_to(teal_simulator *sim, double t_final, teal_sim_status *status);
int teal_simulator_set_target_realtime_rate(teal_simulator *sim, double rate);

/* logging */
typedef struct teal_vector_log {
  int size; int count; int capacity; double *times; double *data;
} teal_vector_log;
teal_system *teal_vector_log_sink_new(const char *name, int n, double publish_period,
                                      teal_error *err);
const teal_vector_log *teal_vector_log_sink_log(const teal_system *sys, const teal_context *ctx);
int teal_vector_log_sink_clear(const teal_system *sys, teal_context *ctx);

/* linear systems, linearization, LQR */
typedef struct teal_linear_system_matrices {
  int nx, nu, ny; double time_period;
  const double *A; const double *B; const double *f0;
  const double *C; const double *D; const double *y0;
} teal_linear_system_matrices;
typedef struct teal_linearize_options {
  int input_port; int output_port; double eps; int use_analytic;
  double equilibrium_tolerance; ...;
} teal_linearize_options;
void teal_linearize_options_init(teal_linearize_options *opts);
teal_system *teal_linearize(const teal_system *sys, const teal_context *ctx,
                            const teal_linearize_options *opts, teal_error *err);
int teal_linear_system_get(const teal_system *sys, teal_linear_system_matrices *out);
int teal_is_linear_system(const teal_system *sys);
teal_system *teal_linear_system_new(const char *name, const double *A, const double *B,
                                    const double *C, const double *D, int nx, int nu, int ny,
                                    double time_period, teal_error *err);
int teal_lqr(const double *A, const double *B, const double *Q, const double *R, const double *N,
             int n, int m, int discrete, double *K, double *S, teal_error *err);
teal_system *teal_lqr_controller_new(const char *name, const teal_system *sys,
                                     const teal_context *ctx, int input_port, const double *Q,
                                     const double *R, const double *N, double *K, double *S,
                                     teal_error *err);

/* primitives and controllers */
teal_system *teal_constant_vector_source_new(const char *name, const double *value, int n,
                                             teal_error *err);
teal_system *teal_gain_new(const char *name, double k, int n, teal_error *err);
teal_system *teal_adder_new(const char *name, int num_inputs, int n, teal_error *err);
teal_system *teal_saturation_new(const char *name, const double *min, const double *max, int n,
                                 teal_error *err);
teal_system *teal_pid_new(const char *name, const double *kp, const double *ki, const double *kd,
                          int n, teal_error *err);
teal_system *teal_zero_order_hold_new(const char *name, double period, double offset, int n,
                                      teal_error *err);

/* multibody */
teal_plant *teal_plant_new(double time_step, teal_error *err);
void teal_plant_free(teal_plant *plant);
const teal_error *teal_plant_error(const teal_plant *plant);
int teal_plant_finalize(teal_plant *plant);
int teal_plant_is_finalized(const teal_plant *plant);
double teal_plant_time_step(const teal_plant *plant);
teal_system *teal_plant_system(teal_plant *plant);
int teal_plant_nq(const teal_plant *plant);
int teal_plant_nv(const teal_plant *plant);
int teal_plant_num_actuators(const teal_plant *plant);
int teal_plant_actuation_input_port(const teal_plant *plant);
int teal_plant_make_actuation_matrix(const teal_plant *plant, double *B);
int teal_plant_set_actuator_input_gain(teal_plant *plant, int actuator, double gain);
double teal_plant_actuator_input_gain(const teal_plant *plant, int actuator);
int teal_plant_state_output_port(const teal_plant *plant);
int teal_plant_get_positions(const teal_plant *plant, const teal_context *ctx, double *q, int n);
int teal_plant_set_positions(const teal_plant *plant, teal_context *ctx, const double *q, int n);
int teal_plant_get_velocities(const teal_plant *plant, const teal_context *ctx, double *v, int n);
int teal_plant_set_velocities(const teal_plant *plant, teal_context *ctx, const double *v, int n);
int teal_plant_get_state(const teal_plant *plant, const teal_context *ctx, double *x, int n);
int teal_plant_set_state(const teal_plant *plant, teal_context *ctx, const double *x, int n);
int teal_urdf_load_file(teal_plant *plant, const char *path, const char *instance_name,
                        teal_error *err);
int teal_urdf_load_string(teal_plant *plant, const char *xml, const char *instance_name,
                          teal_error *err);
teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *builder, teal_plant *plant,
                                                 teal_error *err);

/* leaf systems written in Python: the C callbacks are the extern "Python"
 * functions below (teal/leaf.py defines them with ffi.def_extern) */
typedef int teal_ticket;
typedef struct teal_continuous_view { double *q; double *v; double *z; } teal_continuous_view;
typedef int (*teal_vector_calc_fn)(const teal_system *sys, const teal_context *ctx, double *out,
                                   void *user);
typedef int (*teal_derivatives_fn)(const teal_system *sys, const teal_context *ctx,
                                   teal_continuous_view *xcdot, void *user);
typedef int (*teal_discrete_update_fn)(const teal_system *sys, const teal_context *ctx,
                                       double *xd_next, void *user);
teal_system *teal_leaf_new(const char *name, void *user, void (*user_free)(void *));
int teal_leaf_declare_vector_input(teal_system *sys, const char *name, int size);
int teal_leaf_declare_vector_output(teal_system *sys, const char *name, int size,
                                    teal_vector_calc_fn calc, void *user,
                                    const teal_ticket *prereqs, int nprereqs);
int teal_leaf_declare_continuous_state(teal_system *sys, int nq, int nv, int nz, const double *x0);
int teal_leaf_declare_discrete_state(teal_system *sys, int size, const double *x0);
int teal_leaf_set_time_derivatives(teal_system *sys, teal_derivatives_fn fn, void *user);
int teal_leaf_declare_periodic_discrete_update(teal_system *sys, double period, double offset,
                                               teal_discrete_update_fn fn, void *user);
int teal_leaf_finalize(teal_system *sys);
int teal_eval_vector_input(const teal_system *sys, const teal_context *ctx, int port,
                           const double **value);
int teal_context_report_error(const teal_context *ctx, int code, const char *fmt, ...);
extern "Python" int teal_py_vector_calc(const teal_system *, const teal_context *, double *,
                                        void *);
extern "Python" int teal_py_derivatives(const teal_system *, const teal_context *,
                                        teal_continuous_view *, void *);
extern "Python" int teal_py_discrete_update(const teal_system *, const teal_context *, double *,
                                            void *);
static const int TEAL_TICKET_NOTHING;
static const int TEAL_TICKET_TIME;
static const int TEAL_TICKET_XC;
static const int TEAL_TICKET_XD;
static const int TEAL_TICKET_ALL_STATE;
static const int TEAL_TICKET_ALL_PARAMETERS;
static const int TEAL_TICKET_ALL_INPUTS;
static const int TEAL_TICKET_ALL_SOURCES;
static const int TEAL_TICKET_INPUT_BASE;

/* contact results and model-based controllers */
typedef struct teal_vec3 { double v[3]; } teal_vec3;
typedef struct teal_contact_info {
  int body_A, body_B; int geometry_A, geometry_B;
  teal_vec3 p_WC; teal_vec3 nhat_BA_W; double depth; double separation_speed;
  double slip_speed; teal_vec3 f_Bc_W;
} teal_contact_info;
typedef enum teal_contact_surface_representation {
  TEAL_CONTACT_SURFACE_POLYGONS = 0, TEAL_CONTACT_SURFACE_TRIANGLES = 1
} teal_contact_surface_representation;
typedef struct teal_contact_polygon {
  int first; int count; double area; double pressure; teal_vec3 centroid; teal_vec3 normal;
  teal_vec3 grad_p;
} teal_contact_polygon;
typedef struct teal_contact_surface {
  int num_faces, face_cap; int num_vertices, vertex_cap; teal_contact_polygon *faces;
  teal_vec3 *vertices; double *pressure; double area; teal_vec3 centroid;
} teal_contact_surface;
typedef struct teal_hydroelastic_contact_info {
  int body_A, body_B; int geometry_A, geometry_B; teal_contact_surface surface;
  teal_vec3 f_Bc_W; teal_vec3 tau_Bc_W;
} teal_hydroelastic_contact_info;
typedef struct teal_contact_results {
  int n, cap; teal_contact_info *c;
  int num_hydroelastic, hydroelastic_cap; teal_hydroelastic_contact_info *hydroelastic;
} teal_contact_results;
int teal_plant_contact_results_output_port(const teal_plant *plant);
int teal_plant_eval_contact_results(const teal_plant *plant, const teal_context *ctx,
                                    const teal_contact_results **results);
teal_system *teal_inverse_dynamics_controller_new(const char *name, const teal_plant *plant,
                                                  const double *kp, const double *ki,
                                                  const double *kd, int n,
                                                  int has_reference_acceleration,
                                                  teal_error *err);
int teal_plant_applied_generalized_force_input_port(const teal_plant *plant);

/* zero-copy state and parameter access (framework/context_access.h) */
const double *teal_context_continuous_state(const teal_context *ctx);
const double *teal_context_q(const teal_context *ctx);
const double *teal_context_v(const teal_context *ctx);
const double *teal_context_z(const teal_context *ctx);
double *teal_context_discrete_state_mut(teal_context *ctx);
const double *teal_context_numeric_parameter(const teal_context *ctx, int i);
int teal_context_set_numeric_parameter(teal_context *ctx, int i, const double *p, int n);
int teal_context_set_discrete_group(teal_context *ctx, int i, const double *x, int n);

/* more of a Python leaf: parameters, publishes, initialization and witness events */
typedef enum teal_witness_direction {
  TEAL_WITNESS_POSITIVE_TO_NEGATIVE = 0, TEAL_WITNESS_NEGATIVE_TO_POSITIVE = 1,
  TEAL_WITNESS_CROSSES_ZERO = 2
} teal_witness_direction;
typedef int (*teal_publish_fn)(const teal_system *sys, const teal_context *ctx, void *user);
typedef int (*teal_witness_fn)(const teal_system *sys, const teal_context *ctx, double *value,
                               void *user);
int teal_leaf_declare_numeric_parameter(teal_system *sys, int size, const double *p0);
int teal_leaf_declare_periodic_publish(teal_system *sys, double period, double offset,
                                       teal_publish_fn fn, void *user);
int teal_leaf_declare_per_step_publish(teal_system *sys, teal_publish_fn fn, void *user);
int teal_leaf_declare_forced_publish(teal_system *sys, teal_publish_fn fn, void *user);
int teal_leaf_declare_initialization_publish(teal_system *sys, teal_publish_fn fn, void *user);
int teal_leaf_declare_initialization_discrete_update(teal_system *sys,
                                                     teal_discrete_update_fn fn, void *user);
int teal_leaf_declare_witness_publish(teal_system *sys, teal_witness_direction direction,
                                      teal_witness_fn witness, teal_publish_fn fn, void *user);
int teal_leaf_declare_witness_discrete_update(teal_system *sys, teal_witness_direction direction,
                                              teal_witness_fn witness,
                                              teal_discrete_update_fn fn, void *user);
int teal_force_publish(const teal_system *sys, const teal_context *ctx);
extern "Python" int teal_py_publish(const teal_system *, const teal_context *, void *);
extern "Python" int teal_py_witness(const teal_system *, const teal_context *, double *, void *);
extern "Python" int teal_py_witness_publish(const teal_system *, const teal_context *, void *);
extern "Python" int teal_py_witness_update(const teal_system *, const teal_context *, double *,
                                           void *);

/* simulator settings and statistics (systems/analysis/simulator_settings.h) */
typedef struct teal_integrator_type {
  const char *name; int order; int error_order; int implicit; ...;
} teal_integrator_type;
typedef struct teal_integrator teal_integrator;
const teal_integrator_type *const teal_integrator_explicit_euler;
const teal_integrator_type *const teal_integrator_semi_explicit_euler;
const teal_integrator_type *const teal_integrator_rk2;
const teal_integrator_type *const teal_integrator_rk3;
const teal_integrator_type *const teal_integrator_rk4;
const teal_integrator_type *const teal_integrator_rk45;
const teal_integrator_type *const teal_integrator_implicit_euler;
const teal_integrator_type *const teal_integrator_radau3;
const teal_integrator *teal_simulator_integrator(const teal_simulator *sim);
const teal_integrator_type *teal_integrator_get_type(const teal_integrator *integ);
typedef struct teal_sim_stats {
  long steps; long failed_steps; long witness_trials; long derivative_evals;
  long publishes, discrete_updates, unrestricted_updates;
  double smallest_step, largest_step;
} teal_sim_stats;
teal_sim_stats teal_simulator_get_stats(const teal_simulator *sim);
int teal_simulator_set_integrator(teal_simulator *sim, const teal_integrator_type *type);
int teal_simulator_set_fixed_step(teal_simulator *sim, double h);
int teal_simulator_set_accuracy(teal_simulator *sim, double accuracy);
int teal_simulator_set_max_step(teal_simulator *sim, double h);
int teal_simulator_set_min_step(teal_simulator *sim, double h);
int teal_simulator_set_witness_tolerance(teal_simulator *sim, double dt);
int teal_simulator_set_publish_every_step(teal_simulator *sim, int on);
typedef int (*teal_monitor_fn)(const teal_system *sys, const teal_context *ctx, void *user);
int teal_simulator_set_monitor(teal_simulator *sim, teal_monitor_fn fn, void *user);
extern "Python" int teal_py_monitor(const teal_system *, const teal_context *, void *);
static const int TEAL_STOP;

/* more primitives (systems/primitives) */
typedef struct teal_piecewise_polynomial teal_piecewise_polynomial;
teal_system *teal_matrix_gain_new(const char *name, const double *D, int ny, int nu,
                                  teal_error *err);
teal_system *teal_multiplexer_new(const char *name, const int *input_sizes, int num_inputs,
                                  teal_error *err);
teal_system *teal_demultiplexer_new(const char *name, const int *output_sizes, int num_outputs,
                                    teal_error *err);
teal_system *teal_integrator_system_new_with_initial(const char *name, const double *z0, int n,
                                                     teal_error *err);
teal_system *teal_pass_through_new(const char *name, int n, teal_error *err);
teal_system *teal_first_order_low_pass_filter_new(const char *name, const double *time_constants,
                                                  int n, teal_error *err);
teal_piecewise_polynomial *teal_piecewise_polynomial_zero_order_hold(
    const double *breaks, const double *samples, int nbreaks, int rows, teal_error *err);
teal_piecewise_polynomial *teal_piecewise_polynomial_first_order_hold(
    const double *breaks, const double *samples, int nbreaks, int rows, teal_error *err);
void teal_piecewise_polynomial_free(teal_piecewise_polynomial *pp);
int teal_piecewise_polynomial_rows(const teal_piecewise_polynomial *pp);
int teal_piecewise_polynomial_value(const teal_piecewise_polynomial *pp, double t, double *out);
teal_system *teal_trajectory_source_new(const char *name, const teal_piecewise_polynomial *traj,
                                        int output_derivative_order, teal_error *err);

/* the visualizer and its replay page (geometry/visualization) */
typedef struct teal_visualizer_options {
  double publish_period; int include_proximity; const char *name; int exact_times; ...;
} teal_visualizer_options;
typedef struct teal_scene_recording {
  int num_geometries; int count; double *times; double *poses; long skipped; ...;
} teal_scene_recording;
typedef struct teal_replay_plot {
  const char *title; int count; int size; const double *times; const double *data;
  const char *const *names;
} teal_replay_plot;
typedef struct teal_replay_options {
  const char *title; const char *three_dir; const teal_replay_plot *plots; int num_plots;
  int show_frames; ...;
} teal_replay_options;
teal_visualizer_options teal_visualizer_options_default(void);
teal_replay_options teal_replay_options_default(void);
teal_system *teal_add_visualizer(teal_builder *b, teal_scene_graph *sg,
                                 const teal_visualizer_options *opts, teal_error *err);
const teal_scene_recording *teal_visualizer_recording(const teal_system *sys,
                                                      const teal_context *ctx);
int teal_visualizer_clear(const teal_system *sys, teal_context *ctx);
int teal_visualizer_write_html(const teal_system *sys, const teal_context *ctx, const char *path,
                               const teal_replay_options *opts, teal_error *err);

/* estimators and the finite-horizon LQR (systems/estimators, systems/controllers) */
int teal_steady_state_kalman_gain(const double *A, const double *C, const double *W,
                                  const double *V, int nx, int ny, int discrete, double *L,
                                  double *P, teal_error *err);
teal_system *teal_steady_state_kalman_filter_new(const char *name, const teal_system *system,
                                                 const teal_context *ctx, const double *W,
                                                 const double *V, teal_error *err);
teal_system *teal_luenberger_observer_new(const char *name, const teal_system *observed,
                                          const teal_context *observed_context, const double *L,
                                          teal_error *err);
int teal_luenberger_observer_gain(const teal_system *sys, double *L, int n);
int teal_system_num_numeric_parameters(const teal_system *sys);
int teal_system_numeric_parameter_size(const teal_system *sys, int i);

/* the finite-horizon LQR (systems/controllers/finite_horizon_lqr.h) */
typedef struct teal_finite_horizon_lqr_options {
  const double *Qf; const double *N; int input_port;
  const teal_piecewise_polynomial *x0; const teal_piecewise_polynomial *u0;
  double rtol; double atol; int max_steps;
} teal_finite_horizon_lqr_options;
typedef struct teal_finite_horizon_lqr_result {
  int nx; int nu; double period; double t0; double tf;
  teal_piecewise_polynomial *x0; teal_piecewise_polynomial *u0; teal_piecewise_polynomial *K;
  teal_piecewise_polynomial *k0; teal_piecewise_polynomial *S; teal_piecewise_polynomial *sx;
  teal_piecewise_polynomial *s0;
} teal_finite_horizon_lqr_result;
void teal_finite_horizon_lqr_options_init(teal_finite_horizon_lqr_options *opts);
int teal_finite_horizon_lqr(const teal_system *sys, const teal_context *ctx, double t0, double tf,
                            const double *Q, const double *R,
                            const teal_finite_horizon_lqr_options *opts,
                            teal_finite_horizon_lqr_result *result, teal_error *err);
void teal_finite_horizon_lqr_result_free(teal_finite_horizon_lqr_result *result);
teal_system *teal_finite_horizon_lqr_controller_new(
    const char *name, const teal_finite_horizon_lqr_result *result, teal_error *err);
teal_piecewise_polynomial *teal_piecewise_polynomial_copy(const teal_piecewise_polynomial *pp,
                                                          teal_error *err);
double teal_piecewise_polynomial_start_time(const teal_piecewise_polynomial *pp);
double teal_piecewise_polynomial_end_time(const teal_piecewise_polynomial *pp);

/* abstract values holding Python objects (framework/value.h); the hooks are
 * the extern "Python" functions teal/abstract.py defines */
typedef struct teal_value_type {
  const char *name; size_t size; int (*init)(void *dst); int (*copy)(void *dst, const void *src);
  void (*free)(void *value);
} teal_value_type;
typedef int (*teal_abstract_calc_fn)(const teal_system *sys, const teal_context *ctx, void *out,
                                     void *user);
const teal_value_type *teal_input_port_type(const teal_input_port *port);
const teal_value_type *teal_output_port_type(const teal_output_port *port);
int teal_leaf_declare_abstract_input(teal_system *sys, const char *name,
                                     const teal_value_type *type);
int teal_leaf_declare_abstract_output(teal_system *sys, const char *name,
                                      const teal_value_type *type, teal_abstract_calc_fn calc,
                                      void *user, const teal_ticket *prereqs, int nprereqs);
int teal_eval_abstract_input(const teal_system *sys, const teal_context *ctx, int port,
                             const void **value);
int teal_eval_abstract_output(const teal_system *sys, const teal_context *ctx, int port,
                              const void **value);
int teal_context_fix_abstract_input(teal_context *ctx, int port, const void *value);
extern "Python" int teal_py_value_copy(void *, const void *);
extern "Python" void teal_py_value_free(void *);
extern "Python" int teal_py_abstract_calc(const teal_system *, const teal_context *, void *,
                                          void *);
typedef struct teal_state_view { double *q, *v, *z; double *xd; void **xa; } teal_state_view;
typedef int (*teal_unrestricted_update_fn)(const teal_system *sys, const teal_context *ctx,
                                           teal_state_view *next, void *user);
int teal_leaf_declare_abstract_state(teal_system *sys, const teal_value_type *type,
                                     const void *model);
int teal_leaf_declare_periodic_unrestricted_update(teal_system *sys, double period,
                                                   double offset, teal_unrestricted_update_fn fn,
                                                   void *user);
int teal_leaf_declare_per_step_unrestricted_update(teal_system *sys,
                                                   teal_unrestricted_update_fn fn, void *user);
int teal_leaf_declare_initialization_unrestricted_update(teal_system *sys,
                                                         teal_unrestricted_update_fn fn,
                                                         void *user);
int teal_system_num_abstract_states(const teal_system *sys);
const void *teal_context_abstract_state(const teal_context *ctx, int i);
int teal_context_set_abstract_state(teal_context *ctx, int i, const void *value);
extern "Python" int teal_py_unrestricted_update(const teal_system *, const teal_context *,
                                                teal_state_view *, void *);

/* sources and the discrete derivative (systems/primitives) */
typedef enum teal_noise_kind { TEAL_NOISE_UNIFORM = 0, TEAL_NOISE_GAUSSIAN = 1 } teal_noise_kind;
teal_system *teal_sine_new(const char *name, const double *amplitude, const double *frequency,
                           const double *phase, int n, teal_error *err);
teal_system *teal_step_new(const char *name, double step_time, const double *initial_value,
                           const double *final_value, int n, teal_error *err);
teal_system *teal_ramp_new(const char *name, const double *slope, double start_time,
                           const double *initial_value, int n, teal_error *err);
teal_system *teal_random_source_new(const char *name, teal_noise_kind kind, int n, double period,
                                    uint64_t seed, teal_error *err);
teal_system *teal_discrete_derivative_new_ex(const char *name, int n, double period,
                                             int suppress_initial_transient, teal_error *err);

/* multibody elements, constraints, joint locking and settings
 * (multibody/tree/plant_model.h, multibody/constraints, multibody/plant) */
typedef struct teal_mat3 { double m[9]; } teal_mat3;
typedef teal_mat3 teal_rotation;
typedef struct teal_transform { teal_rotation R; teal_vec3 p; } teal_transform;
void teal_free(void *p);
int teal_plant_get_body_by_name(const teal_plant *plant, const char *name, int instance,
                                teal_error *err);
int teal_plant_get_joint_by_name(const teal_plant *plant, const char *name, int instance,
                                 teal_error *err);
int teal_plant_get_model_instance_by_name(const teal_plant *plant, const char *name,
                                          teal_error *err);
int teal_plant_num_bodies(const teal_plant *plant);
int teal_plant_num_joints(const teal_plant *plant);
const char *teal_plant_body_name(const teal_plant *plant, int body);
const char *teal_plant_joint_name(const teal_plant *plant, int joint);
int teal_plant_eval_mass_matrix(const teal_plant *plant, const teal_context *ctx,
                                const double **M);
char *teal_plant_summary_string(const teal_plant *plant, teal_error *err);
int teal_plant_add_coupler_constraint(teal_plant *plant, int joint0, int joint1,
                                      double gear_ratio, double offset);
int teal_plant_add_distance_constraint(teal_plant *plant, int body_A, teal_vec3 p_AP,
                                       int body_B, teal_vec3 p_BQ, double distance,
                                       double stiffness, double damping);
int teal_plant_add_ball_constraint(teal_plant *plant, int body_A, teal_vec3 p_AP, int body_B,
                                   teal_vec3 p_BQ);
int teal_plant_add_weld_constraint(teal_plant *plant, int body_A, teal_transform X_AP,
                                   int body_B, teal_transform X_BQ);
int teal_plant_add_point_in_plane_constraint(teal_plant *plant, int body_A, teal_vec3 normal_A,
                                             double height, int body_B, teal_vec3 p_BS);
int teal_plant_add_point_on_line_constraint(teal_plant *plant, int body_A,
                                            teal_vec3 direction_A, teal_vec3 p_AL, int body_B,
                                            teal_vec3 p_BS);
int teal_plant_add_constant_angle_constraint(teal_plant *plant, int body_A, teal_vec3 a_A,
                                             int body_B, teal_vec3 b_B, double angle);
int teal_plant_num_constraints(const teal_plant *plant);
int teal_plant_constraint_kind(const teal_plant *plant, int c);
int teal_plant_constraint_num_rows(const teal_plant *plant, int c);
int teal_plant_constraint_row_start(const teal_plant *plant, int c);
int teal_plant_num_constraint_rows(const teal_plant *plant);
int teal_plant_set_constraint_default_enabled(teal_plant *plant, int c, int enabled);
int teal_plant_set_constraint_enabled(const teal_plant *plant, teal_context *ctx, int c,
                                      int enabled);
int teal_plant_constraint_enabled(const teal_plant *plant, const teal_context *ctx, int c);
int teal_plant_get_constraint_multipliers(const teal_plant *plant, const teal_context *ctx,
                                          double *lambda);
int teal_plant_constraint_multipliers_output_port(const teal_plant *plant);
int teal_plant_lock_joint(const teal_plant *plant, teal_context *ctx, int joint);
int teal_plant_unlock_joint(const teal_plant *plant, teal_context *ctx, int joint);
int teal_plant_joint_is_locked(const teal_plant *plant, const teal_context *ctx, int joint,
                               int *locked);
int teal_plant_set_baumgarte_stabilization(teal_plant *plant, double alpha, double beta);
int teal_plant_set_constraint_projection(teal_plant *plant, int enabled);

/* the parser entry point and package maps (multibody/parsing) */
typedef struct teal_package_map teal_package_map;
typedef struct teal_parser_options {
  const char *format; const char *instance_name; size_t max_bytes; int max_attributes;
  const teal_package_map *packages;
} teal_parser_options;
typedef struct teal_parser_report {
  int num_warnings; int mesh_collisions; int nonconvex_meshes; int ignored_elements;
  char first_warning[...];
} teal_parser_report;
void teal_parser_options_init(teal_parser_options *options);
int teal_parser_add_models(teal_plant *plant, const char *path,
                           const teal_parser_options *options, int *instances_out, int cap,
                           int *count_out, teal_parser_report *report, teal_error *err);
int teal_parser_add_models_string(teal_plant *plant, const char *text, const char *format,
                                  const teal_parser_options *options, int *instances_out,
                                  int cap, int *count_out, teal_parser_report *report,
                                  teal_error *err);
teal_package_map *teal_package_map_new(teal_error *err);
void teal_package_map_free(teal_package_map *map);
int teal_package_map_add(teal_package_map *map, const char *name, const char *dir,
                         teal_error *err);
int teal_package_map_crawl(teal_package_map *map, const char *root, int *added,
                           teal_error *err);
int teal_package_map_populate_from_environment(teal_package_map *map, const char *env_var,
                                               teal_error *err);
int teal_package_map_size(const teal_package_map *map);
const char *teal_package_map_get(const teal_package_map *map, const char *name);

/* the LQG compensator and the implicit integrators' Jacobian setting */
teal_system *teal_lqg_controller_from_system(const char *name, const teal_system *sys,
                                             const teal_context *ctx, int input_port,
                                             int output_port, const double *Q, const double *R,
                                             const double *W, const double *V, double *K,
                                             double *L, teal_error *err);
int teal_simulator_set_analytic_jacobian(teal_simulator *sim, int on);
int teal_simulator_uses_analytic_jacobian(const teal_simulator *sim);
int teal_plant_prescribe_joint_trajectory(teal_plant *plant, int joint,
                                          const teal_piecewise_polynomial *pp);
int teal_plant_joint_is_prescribed(const teal_plant *plant, int joint);
int teal_plant_calc_motion_errors(const teal_plant *plant, const teal_context *ctx, int level,
                                  double *err, int n);
int teal_package_map_resolve(const teal_package_map *map, const char *uri, const char *base_dir,
                             char *path, size_t cap, teal_error *err);

/* geometry: shapes, the plant's geometry registration, the scene graph's
 * model and its queries in a context (geometry/, multibody/contact) */
typedef enum teal_shape_kind {
  TEAL_SHAPE_SPHERE = 0, TEAL_SHAPE_BOX, TEAL_SHAPE_CYLINDER, TEAL_SHAPE_CAPSULE,
  TEAL_SHAPE_ELLIPSOID, TEAL_SHAPE_HALF_SPACE, TEAL_SHAPE_CONVEX, TEAL_SHAPE_MESH,
  TEAL_SHAPE_KIND_COUNT
} teal_shape_kind;
typedef struct teal_shape {
  teal_shape_kind kind; double radius, length; teal_vec3 size; int num_vertices;
  teal_vec3 *vertices; char *filename;
} teal_shape;
int teal_shape_sphere(double radius, teal_shape *out, teal_error *err);
int teal_shape_box(double x, double y, double z, teal_shape *out, teal_error *err);
int teal_shape_cylinder(double radius, double length, teal_shape *out, teal_error *err);
int teal_shape_capsule(double radius, double length, teal_shape *out, teal_error *err);
int teal_shape_ellipsoid(double a, double b, double c, teal_shape *out, teal_error *err);
int teal_shape_half_space(teal_shape *out);
int teal_shape_convex(const teal_vec3 *vertices, int n, teal_shape *out, teal_error *err);
int teal_shape_mesh(const char *filename, double scale, teal_shape *out, teal_error *err);
void teal_shape_release(teal_shape *shape);
const char *teal_shape_kind_name(teal_shape_kind kind);
typedef struct teal_mesh_shapes { teal_shape collision; teal_shape visual; ...; } teal_mesh_shapes;
int teal_mesh_shapes_from_file(const char *path, double scale, teal_mesh_shapes *out,
                               teal_error *err);
void teal_mesh_shapes_release(teal_mesh_shapes *shapes);

typedef enum teal_geometry_role {
  TEAL_ROLE_PROXIMITY = 1, TEAL_ROLE_ILLUSTRATION = 2
} teal_geometry_role;
typedef enum teal_hydroelastic_compliance {
  TEAL_HYDROELASTIC_NONE = 0, TEAL_HYDROELASTIC_RIGID = 1, TEAL_HYDROELASTIC_SOFT = 2
} teal_hydroelastic_compliance;
typedef struct teal_proximity_properties {
  double static_friction, dynamic_friction; double point_contact_stiffness;
  double hunt_crossley_dissipation; double relaxation_time;
  teal_hydroelastic_compliance compliance; double hydroelastic_modulus; double resolution_hint;
} teal_proximity_properties;
teal_proximity_properties teal_proximity_properties_make(double static_friction,
                                                         double dynamic_friction);
int teal_proximity_properties_valid(const teal_proximity_properties *p);

int teal_plant_register_collision_geometry(teal_plant *plant, int body, teal_transform X_BG,
                                           const teal_shape *shape, const char *name,
                                           const teal_proximity_properties *props);
int teal_plant_register_visual_geometry(teal_plant *plant, int body, teal_transform X_BG,
                                        const teal_shape *shape, const char *name,
                                        const double rgba[4]);
int teal_plant_num_collision_geometries(const teal_plant *plant);
int teal_plant_num_visual_geometries(const teal_plant *plant);
int teal_plant_get_collision_geometries_for_body(const teal_plant *plant, int body, int *out,
                                                 int cap, teal_error *err);
int teal_plant_get_visual_geometries_for_body(const teal_plant *plant, int body, int *out,
                                              int cap, teal_error *err);
int teal_plant_get_geometry_id(const teal_plant *plant, int g);
int teal_plant_get_geometry_from_id(const teal_plant *plant, int id);
int teal_plant_get_source_id(const teal_plant *plant);
int teal_plant_get_body_frame_id_if_exists(const teal_plant *plant, int body);
int teal_plant_get_body_from_frame_id(const teal_plant *plant, int frame_id);
int teal_plant_geometry_pose_output_port(const teal_plant *plant);
int teal_plant_geometry_query_input_port(const teal_plant *plant);
int teal_plant_body_poses_output_port(const teal_plant *plant);

const teal_error *teal_scene_graph_error(const teal_scene_graph *sg);
teal_system *teal_scene_graph_system(teal_scene_graph *sg);
int teal_scene_graph_query_output_port(const teal_scene_graph *sg);
int teal_scene_graph_geometry_poses_output_port(const teal_scene_graph *sg);
int teal_scene_graph_num_sources(const teal_scene_graph *sg);
int teal_scene_graph_num_frames(const teal_scene_graph *sg);
int teal_scene_graph_num_geometries(const teal_scene_graph *sg);
int teal_scene_graph_geometry_frame(const teal_scene_graph *sg, int geometry);
const char *teal_scene_graph_geometry_name(const teal_scene_graph *sg, int geometry);
teal_geometry_role teal_scene_graph_geometry_role(const teal_scene_graph *sg, int geometry);
const char *teal_scene_graph_frame_name(const teal_scene_graph *sg, int frame);
const teal_shape *teal_scene_graph_geometry_shape(const teal_scene_graph *sg, int geometry);
const teal_transform *teal_scene_graph_geometry_pose_in_frame(const teal_scene_graph *sg,
                                                               int geometry);
int teal_scene_graph_pair_is_candidate(const teal_scene_graph *sg, int a, int b);

typedef struct teal_point_pair {
  int id_A, id_B; int frame_A, frame_B; teal_vec3 p_WCa, p_WCb; teal_vec3 nhat_BA_W;
  double depth;
} teal_point_pair;
typedef struct teal_point_pair_list { int n, cap; teal_point_pair *pairs; } teal_point_pair_list;
typedef struct teal_transform_list { int n, cap; teal_transform *X; } teal_transform_list;
int teal_scene_graph_eval_geometry_poses(const teal_scene_graph *sg, const teal_context *ctx,
                                         const teal_transform **X_WG);
int teal_scene_graph_eval_point_pair_penetrations(const teal_scene_graph *sg,
                                                  const teal_context *ctx,
                                                  const teal_point_pair_list **pairs);
int teal_scene_graph_signed_distance(const teal_scene_graph *sg, const teal_context *ctx, int a,
                                     int b, double *distance, teal_vec3 *p_WCa, teal_vec3 *p_WCb);
typedef struct teal_spatial_vector { double v[6]; } teal_spatial_vector;
typedef struct teal_spatial_vector_list { int n, cap; teal_spatial_vector *V; }
    teal_spatial_vector_list;
int teal_plant_body_spatial_velocities_output_port(const teal_plant *plant);
int teal_plant_body_spatial_accelerations_output_port(const teal_plant *plant);
int teal_plant_reaction_forces_output_port(const teal_plant *plant);

/* contact models and discrete solvers (multibody/contact/hydroelastic.h,
 * discrete_contact_solver.h) */
typedef enum teal_contact_model {
  TEAL_CONTACT_MODEL_POINT = 0, TEAL_CONTACT_MODEL_HYDROELASTIC = 1,
  TEAL_CONTACT_MODEL_HYDROELASTIC_WITH_FALLBACK = 2
} teal_contact_model;
int teal_plant_set_contact_model(teal_plant *plant, teal_contact_model model);
teal_contact_model teal_plant_get_contact_model(const teal_plant *plant);
int teal_plant_set_contact_surface_representation(teal_plant *plant,
                                                  teal_contact_surface_representation rep);
teal_contact_surface_representation
teal_plant_get_contact_surface_representation(const teal_plant *plant);
typedef enum teal_discrete_contact_solver {
  TEAL_DISCRETE_CONTACT_SOLVER_TAMSI = 0, TEAL_DISCRETE_CONTACT_SOLVER_SAP = 1
} teal_discrete_contact_solver;
int teal_plant_set_discrete_contact_solver(teal_plant *plant,
                                           teal_discrete_contact_solver solver);
teal_discrete_contact_solver teal_plant_get_discrete_contact_solver(const teal_plant *plant);

/* inertial parameters (multibody/algorithms/regressor.h, data.h,
 * multibody/plant/plant_parameter_derivatives.h) */
typedef struct teal_mb_data teal_mb_data;
teal_mb_data *teal_mb_data_new(const teal_plant *plant, teal_error *err);
void teal_mb_data_free(teal_mb_data *data);
const teal_error *teal_mb_data_error(const teal_mb_data *data);
int teal_mb_data_set_gravity(teal_mb_data *data, teal_vec3 g_W);
teal_vec3 teal_plant_gravity(const teal_plant *plant);
int teal_mb_inverse_dynamics_regressor(const teal_plant *plant, teal_mb_data *data,
                                       const double *q, const double *v, const double *vdot,
                                       double *Y);
int teal_plant_get_body_inertial_parameters_in_context(const teal_plant *plant,
                                                       const teal_context *ctx, int body,
                                                       double *pi);
int teal_plant_calc_forward_dynamics_parameter_derivatives(const teal_plant *plant,
                                                           const teal_context *ctx, int body,
                                                           double *vdot, double *dvdot_dpi);

/* tendons, joint armature, discrete constraint forces, motion power
 * (multibody/forces/tendons.h, multibody/tree/joint_armature.h,
 * multibody/plant/discrete_constraints.h, prescribed_motion.h) */
typedef struct teal_tendon_spring {
  double stiffness; double damping; double spring_length; double lower; double upper;
  double limit_stiffness; double limit_damping;
} teal_tendon_spring;
teal_tendon_spring teal_tendon_spring_default(void);
int teal_plant_add_fixed_tendon(teal_plant *plant, const char *name, int instance, int n,
                                const int *joints, const double *coefs,
                                const teal_tendon_spring *spring);
int teal_plant_num_tendons(const teal_plant *plant);
int teal_plant_tendon_element(const teal_plant *plant, int k);
int teal_plant_find_tendon(const teal_plant *plant, const char *name, int instance);
const char *teal_plant_tendon_name(const teal_plant *plant, int i);
int teal_plant_get_tendon_spring(const teal_plant *plant, int i, teal_tendon_spring *spring,
                                 teal_error *err);
int teal_plant_calc_tendon_jacobian(const teal_plant *plant, teal_mb_data *data, int i,
                                    const double *q, double *J, teal_error *err);
int teal_plant_set_joint_default_armature(teal_plant *plant, int joint, double armature);
double teal_plant_joint_default_armature(const teal_plant *plant, int joint);
int teal_plant_get_discrete_constraint_multipliers(const teal_plant *plant,
                                                   const teal_context *ctx, double *lambda);
int teal_plant_get_discrete_constraint_tension(const teal_plant *plant, const teal_context *ctx,
                                               int c, double *tension);
int teal_plant_calc_motion_power(const teal_plant *plant, const teal_context *ctx,
                                 double *power);
int teal_simulator_set_error_projection(teal_simulator *sim, int on);
int teal_simulator_uses_error_projection(const teal_simulator *sim);
int teal_mb_body_velocities(const teal_plant *plant, const double *q, const double *v,
                            teal_transform *X_WB, teal_spatial_vector *V_WB);
int teal_plant_calc_tendon_length(const teal_plant *plant, int i, const double *q,
                                  const double *v, const teal_transform *X_WB,
                                  const teal_spatial_vector *V_WB, double *length, double *rate,
                                  teal_error *err);
int teal_plant_calc_inverse_dynamics(const teal_plant *plant, const teal_context *ctx,
                                     const double *vdot, const double *tau_applied,
                                     const teal_spatial_vector *F_applied_Bo_W, double *tau_out);
int teal_plant_calc_gravity_generalized_forces(const teal_plant *plant, const teal_context *ctx,
                                               double *tau_g);
int teal_plant_calc_motion_forces(const teal_plant *plant, const teal_context *ctx, double *tau,
                                  int n);

/* fixed-offset frames (multibody/tree/plant_model.h) */
int teal_plant_add_frame(teal_plant *plant, const char *name, int parent_frame,
                         teal_transform X_PF);
int teal_plant_add_frame_in_instance(teal_plant *plant, const char *name, int instance,
                                     int parent_frame, teal_transform X_PF);
int teal_plant_get_frame_by_name(const teal_plant *plant, const char *name, int instance,
                                 teal_error *err);
int teal_plant_num_frames(const teal_plant *plant);
const char *teal_plant_frame_name(const teal_plant *plant, int frame);
int teal_plant_body_frame(const teal_plant *plant, int body);
int teal_plant_frame_body(const teal_plant *plant, int frame);
const teal_transform *teal_plant_frame_pose_in_body(const teal_plant *plant, int frame);
int teal_plant_add_spatial_tendon(teal_plant *plant, const char *name, int instance, int n,
                                  const int *frames, const teal_tendon_spring *spring);
