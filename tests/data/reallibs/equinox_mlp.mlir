module @jit_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<8x32xf32>, %arg7: tensor<8xf32>, %arg8: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg8, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[1].shape = (b, 16). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[1].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_1 : tensor<i32>
    %4 = stablehlo.add %3, %c_0 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_1 : tensor<i32>
    %8 = stablehlo.add %7, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint b <= 32. Expected '- b + 32' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[1].shape = (b, 16). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[1].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (tensor<i32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<8x32xf32>, tensor<8xf32>, tensor<?x16xf32>) -> tensor<?x8xf32>
    return %9 : tensor<?x8xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<32x16xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32x32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<8x32xf32>, %arg8: tensor<8xf32>, %arg9: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<32> : tensor<1xi32>
    %0 = stablehlo.dot_general %arg1, %arg9, contracting_dims = [1] x [1] : (tensor<32x16xf32>, tensor<?x16xf32>) -> tensor<32x?xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<32x?xf32>) -> tensor<?x32xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.concatenate %3, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %5 = stablehlo.dynamic_broadcast_in_dim %2, %4, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %6 = stablehlo.add %1, %5 : tensor<?x32xf32>
    %7 = stablehlo.tanh %6 : tensor<?x32xf32>
    %8 = stablehlo.dot_general %arg3, %7, contracting_dims = [1] x [1] : (tensor<32x32xf32>, tensor<?x32xf32>) -> tensor<32x?xf32>
    %9 = stablehlo.transpose %8, dims = [1, 0] : (tensor<32x?xf32>) -> tensor<?x32xf32>
    %10 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %11 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %12 = stablehlo.concatenate %11, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %10, %12, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %14 = stablehlo.add %9, %13 : tensor<?x32xf32>
    %15 = stablehlo.tanh %14 : tensor<?x32xf32>
    %16 = stablehlo.dot_general %arg5, %15, contracting_dims = [1] x [1] : (tensor<32x32xf32>, tensor<?x32xf32>) -> tensor<32x?xf32>
    %17 = stablehlo.transpose %16, dims = [1, 0] : (tensor<32x?xf32>) -> tensor<?x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %18, %20, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %22 = stablehlo.add %17, %21 : tensor<?x32xf32>
    %23 = stablehlo.tanh %22 : tensor<?x32xf32>
    %24 = stablehlo.dot_general %arg7, %23, contracting_dims = [1] x [1] : (tensor<8x32xf32>, tensor<?x32xf32>) -> tensor<8x?xf32>
    %25 = stablehlo.transpose %24, dims = [1, 0] : (tensor<8x?xf32>) -> tensor<?x8xf32>
    %26 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %27 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %26, %28, dims = [0, 1] : (tensor<1x8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
    %30 = stablehlo.add %25, %29 : tensor<?x8xf32>
    return %30 : tensor<?x8xf32>
  }
}
